import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuiltinProvider } from '@toolplane/builtin-fs-shell';
import type { ToolResult } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '@toolplane/orchestrator';
import { createPolicy, policyMiddleware } from '@toolplane/policy';
import { createScrubber, scrubberMiddleware } from '@toolplane/scrubber';
import { ALPHABETS, createFakeSource } from '@toolplane/scrubber/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const fake = createFakeSource();
let workspace: string;
let orchestrator: ToolsOrchestrator;

function text(result: ToolResult): string {
  return (result.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'toolplane-stack-'));
});
afterEach(async () => {
  await orchestrator?.close();
  await rm(workspace, { recursive: true, force: true });
});

function compose(options: { maxBytes?: number; secrets?: string[] } = {}): ToolsOrchestrator {
  const built = createOrchestrator({ output: { maxBytes: options.maxBytes ?? 64 * 1024 } });
  built.register(createBuiltinProvider({ workspace }));
  built.use(
    policyMiddleware(
      createPolicy({
        profile: 'coding',
        commands: { allow: ['cat *', 'printf *'] },
      }),
    ),
  );
  built.use(scrubberMiddleware(createScrubber({ secrets: options.secrets ?? [] })));
  return built;
}

describe('orchestrator + builtin tools + policy + scrubber', () => {
  it('a token in a file never reaches the model, in plain output or in a stored overflow', async () => {
    const token = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
    const filler = Array.from({ length: 4000 }, (_, i) => `line ${i}`).join('\n');
    await writeFile(join(workspace, 'small.env'), `GITHUB_TOKEN=${token}\n`);
    await writeFile(join(workspace, 'big.log'), `${filler}\nleaked ${token} here\n`);
    orchestrator = compose({ maxBytes: 4096 });

    const small = await orchestrator.call('read', { path: 'small.env' }, { session: { id: 's' } });
    expect(small.ok).toBe(true);
    expect(text(small)).not.toContain(token);
    expect(text(small)).toContain('REDACTED');

    const big = await orchestrator.call('bash', { command: 'cat big.log' }, { session: { id: 's' } });
    const handle = big.meta?.truncated?.handle;
    expect(handle, text(big)).toBeDefined();
    const found = await orchestrator.call(
      'tool_output',
      { handle, mode: 'grep', pattern: 'leaked' },
      { session: { id: 's' } },
    );
    expect(found.ok, JSON.stringify(found)).toBe(true);
    expect(text(found)).toContain('leaked [REDACTED');
    expect(text(found)).not.toContain(token);
  });

  it('exact secret values held by the app are redacted in command output', async () => {
    const secret = fake.chars(ALPHABETS.alnum, 24);
    orchestrator = compose({ secrets: [secret] });
    const result = await orchestrator.call(
      'bash',
      { command: `printf 'value=%s\\n' ${secret}` },
      { session: { id: 's' } },
    );
    expect(text(result)).not.toContain(secret);
    expect(text(result)).toContain('value=');
  });

  it('a denied command line never reaches the executor, whatever comes first', async () => {
    await mkdir(join(workspace, 'keep'));
    await writeFile(join(workspace, 'keep', 'file.txt'), 'precious');
    orchestrator = compose();
    for (const command of ['rm -rf keep', 'echo hi && rm -rf keep', 'true; $(rm -rf keep)']) {
      const result = await orchestrator.call('bash', { command }, { session: { id: 's' } });
      expect(result.ok, command).toBe(false);
      expect(!result.ok && ['DENIED', 'APPROVAL_REQUIRED'].includes(result.error.code), command).toBe(true);
    }
    expect((await stat(join(workspace, 'keep', 'file.txt'))).isFile()).toBe(true);
  });

  it('a risky call with nobody to ask fails closed with APPROVAL_REQUIRED', async () => {
    orchestrator = compose();
    const result = await orchestrator.call('bash', { command: 'make build' }, { session: { id: 's' } });
    expect(!result.ok && result.error.code).toBe('APPROVAL_REQUIRED');
  });

  it('a read-only call is auto-allowed and accounted for', async () => {
    await writeFile(join(workspace, 'a.txt'), 'alpha\nbeta\n');
    orchestrator = compose();
    const result = await orchestrator.call('grep', { pattern: 'beta' }, { session: { id: 's' } });
    expect(result.ok).toBe(true);
    expect(text(result)).toContain('a.txt');
    expect(orchestrator.accounting().totals.grep?.calls).toBe(1);
  });
});
