import { afterEach, describe, expect, it } from 'vitest';
import { type ToolContext, type ToolResult, fail, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { echo, testProvider, waitFor } from './helpers.js';

// Items the first bad-input sweep noticed and left (see the README's "Bad input").

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

function codeOf(result: ToolResult): string {
  return result.ok ? 'OK' : result.error.code;
}

interface BatchEntry {
  readonly tool: string;
  readonly ok: boolean;
  readonly text?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

function batchEntries(result: ToolResult): BatchEntry[] {
  if (!result.ok) throw new Error(`the batch failed: ${result.error.code} ${result.error.message}`);
  return (result.structured as { results: BatchEntry[] }).results;
}

/** A tool that never answers until its call is stopped (then it reports how it was stopped). */
function hung(sideEffect: 'none' | 'mutating', stops: string[]) {
  return {
    spec: { sideEffect },
    run: (_args: Record<string, unknown>, ctx: ToolContext) =>
      new Promise<ToolResult>((resolve) => {
        ctx.onAbort?.((reason) => {
          stops.push((reason as { code?: string }).code ?? String(reason));
          resolve(fail('CANCELLED', 'stopped'));
        });
      }),
  };
}

describe('a batch that reaches its deadline keeps the results of the calls that finished', () => {
  it('parallel read-only calls: the finished ones as they are, the unfinished one TIMEOUT', async () => {
    orchestrator = createOrchestrator();
    const stops: string[] = [];
    orchestrator.register(
      testProvider('t', {
        fast: { spec: { sideEffect: 'none' }, run: () => ok('fast answer') },
        slow: hung('none', stops),
        echo,
      }),
    );
    const result = await orchestrator.call(
      'batch',
      { calls: [{ tool: 't__fast' }, { tool: 't__slow' }, { tool: 't__echo', args: { n: 1 } }] },
      { timeoutMs: 200 },
    );
    // before: the whole batch was one TIMEOUT and the two answers were lost
    const entries = batchEntries(result);
    expect(entries[0]).toEqual({ tool: 't__fast', ok: true, text: 'fast answer' });
    expect(entries[2]).toEqual({ tool: 't__echo', ok: true, text: '{"n":1}' });
    expect(entries[1]).toMatchObject({ tool: 't__slow', ok: false, error: { code: 'TIMEOUT' } });
    expect(entries[1]?.error?.message).toContain('the batch reached its deadline (200 ms)');
    const text = result.ok ? (result.content[0] as { text: string }).text : '';
    expect(text).toContain('[1] t__fast: ok\nfast answer');
    expect(text).toContain('[2] t__slow: TIMEOUT');
    // the unfinished call was stopped, not left running
    await waitFor(() => stops.length === 1);
    expect(stops).toEqual(['TIMEOUT']);
    expect(orchestrator.stats().inflight).toBe(0);
  });

  it('calls in order: done ones kept, the running one TIMEOUT, the ones never started TIMEOUT and not run', async () => {
    orchestrator = createOrchestrator();
    const stops: string[] = [];
    let lateRuns = 0;
    orchestrator.register(
      testProvider('w', {
        first: { spec: { sideEffect: 'mutating' }, run: () => ok('written') },
        stuck: hung('mutating', stops),
        last: {
          spec: { sideEffect: 'mutating' },
          run: () => {
            lateRuns++;
            return ok('late');
          },
        },
      }),
    );
    const result = await orchestrator.call(
      'batch',
      { calls: [{ tool: 'w__first' }, { tool: 'w__stuck' }, { tool: 'w__last' }] },
      { timeoutMs: 200 },
    );
    const entries = batchEntries(result);
    expect(entries.map((entry) => (entry.ok ? 'OK' : entry.error?.code))).toEqual([
      'OK',
      'TIMEOUT',
      'TIMEOUT',
    ]);
    expect(entries[0]?.text).toBe('written');
    expect(entries[2]?.error?.message).toContain('before this call started; it did not run');
    await waitFor(() => stops.length === 1);
    expect(lateRuns).toBe(0);
    // the batch itself is a success in the accounting; its stopped call is not
    const records = orchestrator.accounting().records;
    expect(records.find((record) => record.tool === 'batch')).toMatchObject({ ok: true });
    expect(records.find((record) => record.tool === 'w__first')).toMatchObject({ ok: true });
  });

  it('the same with app middleware installed (the call races its deadline)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use({ name: 'pass', phase: 'observe', handle: (call, next) => next(call) });
    const stops: string[] = [];
    orchestrator.register(
      testProvider('t', {
        fast: { spec: { sideEffect: 'none' }, run: () => ok('fast answer') },
        slow: hung('none', stops),
      }),
    );
    const result = await orchestrator.call(
      'batch',
      { calls: [{ tool: 't__fast' }, { tool: 't__slow' }] },
      { timeoutMs: 200 },
    );
    const entries = batchEntries(result);
    expect(entries.map((entry) => (entry.ok ? 'OK' : entry.error?.code))).toEqual(['OK', 'TIMEOUT']);
    await waitFor(() => stops.length === 1);
  });

  it('a batch the caller cancels is still CANCELLED as a whole', async () => {
    orchestrator = createOrchestrator();
    const stops: string[] = [];
    orchestrator.register(
      testProvider('t', {
        fast: { spec: { sideEffect: 'none' }, run: () => ok('fast answer') },
        slow: hung('none', stops),
      }),
    );
    const controller = new AbortController();
    const pending = orchestrator.call(
      'batch',
      { calls: [{ tool: 't__fast' }, { tool: 't__slow' }] },
      { signal: controller.signal },
    );
    await waitFor(() => orchestrator?.stats().inflight === 2);
    controller.abort();
    expect(codeOf(await pending)).toBe('CANCELLED');
    await waitFor(() => stops.length === 1);
  });
});
