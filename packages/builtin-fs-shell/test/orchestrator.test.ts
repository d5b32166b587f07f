import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentText } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBuiltinProvider } from '../src/index.js';
import { isAlive } from '../src/executor/process-tree.js';
import { eventually, makeTempDir } from './helpers/index.js';

describe('through the orchestrator', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir('tp-orch-')));
  afterEach(() => cleanup());

  it('exposes bare tool names and runs calls', async () => {
    const orchestrator = createOrchestrator();
    orchestrator.register(createBuiltinProvider({ workspace: dir }));
    await orchestrator.warmup();
    const names = orchestrator.listTools().map((spec) => spec.name);
    expect(names).toEqual(
      expect.arrayContaining(['read', 'write', 'edit', 'grep', 'glob', 'bash', 'web_fetch']),
    );
    await writeFile(join(dir, 'a.txt'), 'alpha\n');
    const read = await orchestrator.call('read', { path: 'a.txt' }, { session: { id: 'o1' } });
    expect(read.ok && contentText(read.content)).toContain('alpha');
    const edit = await orchestrator.call(
      'edit',
      { path: 'a.txt', old_string: 'alpha', new_string: 'beta' },
      { session: { id: 'o1' } },
    );
    expect(edit.ok).toBe(true);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('beta\n');
    await orchestrator.close();
  });

  it('an orchestrator deadline kills the command tree', async () => {
    const orchestrator = createOrchestrator();
    orchestrator.register(createBuiltinProvider({ workspace: dir }));
    const result = await orchestrator.call(
      'bash',
      { command: 'sleep 300 & echo $! > child.pid; wait' },
      { session: { id: 'o2' }, timeoutMs: 4000 },
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('TIMEOUT');
    const pid = Number((await readFile(join(dir, 'child.pid'), 'utf8')).trim());
    expect(await eventually(() => !isAlive(pid), 10_000)).toBe(true);
    await orchestrator.close();
  });
});
