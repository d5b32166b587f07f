import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROVIDER_SPEC_VERSION, riskOf } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, textOf } from './helpers/index.js';
import * as api from '../src/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../src/provider.js';

let dir: string;
let cleanup: () => Promise<void>;
let provider: BuiltinProvider;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-provider-'));
  provider = createBuiltinProvider({ workspace: dir });
});
afterAll(async () => {
  await provider?.close?.();
  await cleanup();
});

describe('createBuiltinProvider', () => {
  it('is a builtin provider with unprefixed names', () => {
    expect(provider.specificationVersion).toBe(PROVIDER_SPEC_VERSION);
    expect(provider.kind).toBe('builtin');
    expect(provider.namespace).toBe('builtin');
    expect(provider.prefixNames).toBe(false);
  });

  it('lists every tool with groups, side effects, risk and a JSON schema', async () => {
    const specs = await provider.listTools();
    const summary = Object.fromEntries(
      specs.map((spec) => [spec.name, `${spec.groups?.join('+')} ${spec.sideEffect} ${riskOf(spec)}`]),
    );
    expect(summary).toEqual({
      read: 'fs read low',
      write: 'fs mutating medium',
      edit: 'fs mutating medium',
      list: 'fs read low',
      glob: 'fs read low',
      grep: 'fs read low',
      bash: 'runtime spawns critical',
      task_output: 'runtime read low',
      task_stop: 'runtime mutating medium',
      process: 'runtime read low',
      todo_write: 'todo none none',
      todo_read: 'todo none none',
      web_fetch: 'web network high',
      notebook_edit: 'fs+notebook mutating medium',
    });
    for (const spec of specs) {
      expect(spec.inputSchema.type).toBe('object');
      expect(spec.description.length).toBeGreaterThan(20);
      expect(spec.name).toMatch(/^[a-z_]+$/);
    }
    expect(specs.find((spec) => spec.name === 'bash')?.commandArgument).toBe('command');
  });

  it('offers a subset of tools when asked, and refuses unknown names', async () => {
    const small = createBuiltinProvider({ workspace: dir, tools: ['read', 'grep'] });
    expect((await small.listTools()).map((spec) => spec.name)).toEqual(['read', 'grep']);
    expect(textOf(await small.execute('bash', { command: 'true' }, context()))).toMatch(/^TOOL_NOT_FOUND/);
    await small.close?.();
    expect(() => createBuiltinProvider({ workspace: dir, tools: ['nope' as 'read'] })).toThrow(
      /unknown tool "nope"/,
    );
  });

  it('refuses a workspace that does not exist or is relative', () => {
    expect(() => createBuiltinProvider({ workspace: join(dir, 'missing') })).toThrow(/does not exist/);
    expect(() => createBuiltinProvider({ workspace: 'relative/path' })).toThrow(/absolute path/);
  });

  it('refuses calls after close, and close is safe twice', async () => {
    const closing = createBuiltinProvider({ workspace: dir });
    await writeFile(join(dir, 'a.txt'), 'a');
    okText(await closing.execute('read', { path: 'a.txt' }, context()));
    await closing.close?.();
    await closing.close?.();
    expect(textOf(await closing.execute('read', { path: 'a.txt' }, context()))).toMatch(
      /^PROVIDER_UNAVAILABLE/,
    );
  });

  it('pins the public export list', () => {
    expect(Object.keys(api).sort()).toEqual([
      'BUILTIN_TOOL_NAMES',
      'DEFAULT_ENV_ALLOW_LIST',
      'DEFAULT_LIMITS',
      'DEFAULT_PROTECTED_PATHS',
      'INDEX_AHEAD_MIN_BYTES',
      'Workspace',
      'buildCommandEnv',
      'createBuiltinProvider',
      'createHostExecutor',
    ]);
  });
});
