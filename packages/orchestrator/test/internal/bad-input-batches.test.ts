import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, thrownBy, batchEntries, hung, echo, testProvider, waitFor } from '../helpers.js';

// Batches at and past their deadlines, under limits, and what they carry and echo.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

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
    // the two answers are kept, not lost in one TIMEOUT for the whole batch
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

describe('a batch under a concurrency limit', () => {
  it('maxConcurrency: 1 runs a batch: the batch holds no slot its calls wait for', async () => {
    orchestrator = createOrchestrator({ maxConcurrency: 1 });
    let running = 0;
    let peak = 0;
    const counted = {
      spec: { sideEffect: 'none' as const },
      run: async (args: Record<string, unknown>) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running--;
        return ok(JSON.stringify(args));
      },
    };
    orchestrator.register(testProvider('t', { counted }));
    const result = await orchestrator.call(
      'batch',
      {
        calls: [
          { tool: 't__counted', args: { n: 1 } },
          { tool: 't__counted', args: { n: 2 } },
        ],
      },
      { timeoutMs: 10_000 },
    );
    expect(batchEntries(result).map((entry) => entry.text)).toEqual(['{"n":1}', '{"n":2}']);
    // the calls in it still respect the limit: read-only, yet one at a time
    expect(peak).toBe(1);
    expect(orchestrator.stats().queues.default).toMatchObject({ running: 0, waiting: 0 });
  });
});

describe('what a batch and a caller carry when nothing validates it', () => {
  it.each<[string, unknown, string]>([
    ['calls that are a string', { calls: 'x' }, 'calls must be an array of 1 to 32 calls; got string'],
    ['no calls', {}, 'calls must be an array of 1 to 32 calls; got undefined'],
    ['a call that is null', { calls: [null] }, 'calls[0] must be an object { tool, args? }; got null'],
    [
      'a tool name that is a number',
      { calls: [{ tool: 5 }] },
      'calls[0].tool must be a tool name (a string); got number',
    ],
    [
      'args that are a list',
      { calls: [{ tool: 't__echo', args: [1] }] },
      'calls[0].args must be an object; got an array',
    ],
    [
      '33 calls',
      { calls: new Array(33).fill({ tool: 't__echo' }) },
      'calls must be an array of 1 to 32 calls; got 33',
    ],
  ])(
    'with validation off, a batch with %s is INVALID_ARGUMENTS and runs nothing',
    async (_what, args, text) => {
      orchestrator = createOrchestrator({ validation: false });
      let runs = 0;
      orchestrator.register(
        testProvider('t', {
          echo: {
            spec: { sideEffect: 'none' },
            run: () => {
              runs++;
              return ok('ran');
            },
          },
        }),
      );
      const result = await orchestrator.call('batch', args);
      expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
      expect(result.ok ? '' : result.error.message).toContain(text);
      expect(runs).toBe(0);
    },
  );

  it.each<[string, unknown]>([
    ['a string', 'admin'],
    ['a number', 7],
    ['an array', ['admin']],
  ])(
    'a principal that is %s is INVALID_ARGUMENTS in call() and listTools(view)',
    async (_what, principal) => {
      orchestrator = createOrchestrator();
      let runs = 0;
      orchestrator.register(
        testProvider('t', {
          echo: {
            run: () => {
              runs++;
              return ok('ran');
            },
          },
        }),
      );
      const result = await orchestrator.call('t__echo', {}, { principal: principal as never });
      expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
      expect(result.ok ? '' : result.error.message).toContain(
        'principal of a call to t__echo must be an object',
      );
      expect(runs).toBe(0);
      const error = thrownBy(() => orchestrator?.listTools({ principal: principal as never }));
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('principal of listTools(view) must be an object');
    },
  );
});

describe("a batch and its calls' own deadlines", () => {
  it("a call's own timeout, shorter than the batch's remaining time, holds inside a batch", async () => {
    orchestrator = createOrchestrator();
    const stops: string[] = [];
    orchestrator.register(
      testProvider('t', {
        quick: { spec: { sideEffect: 'none' }, run: () => ok('quick answer') },
        capped: { ...hung('none', stops), spec: { sideEffect: 'none', timeoutMs: 100 } },
      }),
    );
    const result = await orchestrator.call(
      'batch',
      { calls: [{ tool: 't__quick' }, { tool: 't__capped' }] },
      { timeoutMs: 20_000 },
    );
    const entries = batchEntries(result);
    expect(entries[0]).toMatchObject({ ok: true, text: 'quick answer' });
    expect(entries[1]).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(entries[1]?.error?.message).toContain('t__capped did not finish within 100 ms');
    expect(stops).toEqual(['TIMEOUT']);
  });
});

describe('what a batch echoes back', () => {
  it('a megabyte tool name in a batch is cut in its answer', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const huge = 'q'.repeat(1_000_000);
    const result = await orchestrator.call('batch', {
      calls: [{ tool: huge }, { tool: huge }, { tool: 't__echo' }],
    });
    const entries = batchEntries(result);
    expect(entries.map((entry) => entry.error?.code ?? 'OK')).toEqual([
      'TOOL_NOT_FOUND',
      'TOOL_NOT_FOUND',
      'OK',
    ]);
    expect(entries[0]?.tool).toBe(`${'q'.repeat(200)}...`);
    expect(result.ok ? JSON.stringify(result.structured).length : 0).toBeLessThan(5_000);
  });
});
