// Stdio tool calls skip the SDK's request machinery (src/session/direct-calls.ts): these tests
// hold that path to the SDK's promises with a low-level server that breaks them on purpose.
import { createToolContext } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { eventLog, fixture, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());
const log = eventLog();
let provider: McpProvider;

beforeAll(async () => {
  provider = createMcpProvider(
    'direct',
    {
      type: 'stdio',
      command: process.execPath,
      args: [fixture('raw-server.mjs'), '--pages=3'],
      healthIntervalMs: 0,
    },
    { runDirectory: run.path, onEvent: log.onEvent },
  );
  await provider.start?.(AbortSignal.timeout(30_000));
});
afterAll(() => provider.close?.());

/** Asks `check` every 50 ms until it is true, at most 10 s; returns its last answer. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

async function cancellations(): Promise<number> {
  const result = await provider.execute('cancellations', {}, createToolContext());
  if (!result.ok) throw new Error(result.error.message);
  return Number(result.content[0]?.type === 'text' ? result.content[0].text : Number.NaN);
}

describe('stdio tool calls without the SDK request path', () => {
  it('checks structured content against the output schema learned from every list page', async () => {
    const honest = await provider.execute('honest_output', {}, createToolContext());
    expect(honest.ok && honest.structured).toEqual({ sum: 5 });
    const lying = await provider.execute('lying_output', {}, createToolContext());
    expect(!lying.ok && lying.error.code).toBe('INVALID_RESULT');
    expect(!lying.ok && lying.error.message).toMatch(/output schema.*sum/);
    const missing = await provider.execute('missing_output', {}, createToolContext());
    expect(!missing.ok && missing.error.code).toBe('INVALID_RESULT');
    expect(!missing.ok && missing.error.message).toContain('did not return structured content');
  });

  it('refuses a malformed result and maps a JSON-RPC error, and keeps serving', async () => {
    const malformed = await provider.execute('malformed_result', {}, createToolContext());
    expect(!malformed.ok && malformed.error.code).toBe('EXECUTION_FAILED');
    expect(!malformed.ok && malformed.error.message).toContain('content is not an array');
    const refused = await provider.execute('rpc_error', {}, createToolContext());
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.message).toContain('the backend refused');
    expect((await provider.execute('good', { n: 1 }, createToolContext())).ok).toBe(true);
  });

  it('tells the server about a cancel, and drops its late answer without a protocol error', async () => {
    const before = await cancellations();
    const controller = new AbortController();
    const pending = provider.execute('wait_for_cancel', {}, createToolContext({ signal: controller.signal }));
    // late enough that the call is at the server on a loaded machine (an abort before the call
    // is written sends nothing)
    setTimeout(() => controller.abort(new Error('user pressed stop')), 300);
    const result = await pending;
    expect(!result.ok && result.error.code).toBe('CANCELLED');
    // the server counts the cancel, then answers 20 ms later; wait for the count, then for the
    // late answer to have been read
    expect(await eventually(async () => (await cancellations()) === before + 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await cancellations()).toBe(before + 1);
    expect(log.events.filter((event) => event.type === 'protocol-error')).toEqual([]);
  });

  it('cancels through the orchestrator (ctx.onAbort) on timeout and on caller abort', async () => {
    const orchestrator = createOrchestrator();
    orchestrator.register(
      createMcpProvider(
        'viaorch',
        { type: 'stdio', command: process.execPath, args: [fixture('raw-server.mjs')], healthIntervalMs: 0 },
        { runDirectory: run.path },
      ),
    );
    try {
      await orchestrator.warmup();
      // the timeout and the abort come late enough that the call is at the server on a loaded
      // machine (an abort before the call is written sends nothing)
      const timedOut = await orchestrator.call('viaorch__wait_for_cancel', {}, { timeoutMs: 500 });
      expect(!timedOut.ok && timedOut.error.code).toBe('TIMEOUT');
      const controller = new AbortController();
      const pending = orchestrator.call('viaorch__wait_for_cancel', {}, { signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      expect(await pending).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      const count = async (): Promise<unknown> => {
        const result = await orchestrator.call('viaorch__cancellations', {});
        return result.ok && result.content[0];
      };
      await eventually(
        async () => JSON.stringify(await count()) === JSON.stringify({ type: 'text', text: '2' }),
      );
      expect(await count()).toEqual({ type: 'text', text: '2' });
    } finally {
      await orchestrator.close();
    }
  });

  it('leaves a tool that requires task-based execution to the SDK path, which refuses it', async () => {
    // one page: the SDK 1.x client remembers task tools from its last tools/list page only
    const single = createMcpProvider(
      'tasks',
      { type: 'stdio', command: process.execPath, args: [fixture('raw-server.mjs')], healthIntervalMs: 0 },
      { runDirectory: run.path },
    );
    try {
      await single.start?.(AbortSignal.timeout(30_000));
      const result = await single.execute('task_only', {}, createToolContext());
      // the raw server answers any call it gets; only the SDK path refuses before sending
      expect(!result.ok && result.error.message).toMatch(/task-based execution/);
      expect((await single.execute('good', { n: 2 }, createToolContext())).ok).toBe(true);
    } finally {
      await single.close?.();
    }
  });

  it('answers many calls in flight each with its own result', async () => {
    const results = await Promise.all(
      Array.from({ length: 64 }, (_, n) => provider.execute('good', { n }, createToolContext())),
    );
    results.forEach((result, n) => {
      expect(result.ok && result.content[0]).toEqual({ type: 'text', text: `called good with {"n":${n}}` });
    });
  });
});
