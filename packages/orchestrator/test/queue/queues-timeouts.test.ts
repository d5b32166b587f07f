import { afterEach, describe, expect, it } from 'vitest';
import { errorMessage, ok, onAbort } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { delay, testProvider, waitFor } from '../helpers.js';

let orchestrator: ToolsOrchestrator;
afterEach(async () => {
  await orchestrator?.close();
});

describe('named queues', () => {
  it('never run more than maxConcurrency at once', async () => {
    orchestrator = createOrchestrator({ queues: { db: { maxConcurrency: 2 } } });
    let running = 0;
    let peak = 0;
    orchestrator.register(
      testProvider('db', {
        q: {
          spec: { queue: 'db' },
          run: async () => {
            running++;
            peak = Math.max(peak, running);
            await delay(15);
            running--;
            return ok('done');
          },
        },
      }),
    );
    const results = await Promise.all(Array.from({ length: 8 }, () => orchestrator.call('db__q', {})));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(peak).toBe(2);
    expect(results.some((r) => (r.meta?.queueWaitMs ?? 0) > 0)).toBe(true);
  });

  it('serves higher priority first and lets an aborted waiter leave without losing the slot', async () => {
    orchestrator = createOrchestrator({ queues: { one: { maxConcurrency: 1 } } });
    const order: string[] = [];
    let release: () => void = () => {};
    orchestrator.register(
      testProvider('p', {
        gate: {
          spec: { queue: 'one' },
          run: () => new Promise((resolve) => (release = () => resolve(ok('gate')))),
        },
        job: {
          spec: { queue: 'one' },
          run: (args) => {
            order.push(String(args.id));
            return ok(String(args.id));
          },
        },
      }),
    );
    await orchestrator.warmup();
    const gate = orchestrator.call('p__gate', {});
    await waitFor(() => orchestrator.stats().queues.one?.running === 1);
    const controller = new AbortController();
    const low = orchestrator.call('p__job', { id: 'low' }, { priority: 0 });
    const aborted = orchestrator.call(
      'p__job',
      { id: 'aborted' },
      { priority: 5, signal: controller.signal },
    );
    const high = orchestrator.call('p__job', { id: 'high' }, { priority: 10 });
    await waitFor(() => orchestrator.stats().queues.one?.waiting === 3);
    controller.abort();
    const abortedResult = await aborted;
    expect(!abortedResult.ok && abortedResult.error.code).toBe('CANCELLED');
    expect(orchestrator.stats().queues.one?.waiting).toBe(2);
    release();
    await Promise.all([gate, low, high]);
    expect(order).toEqual(['high', 'low']);
    expect(orchestrator.stats().queues.one).toMatchObject({ running: 0, waiting: 0 });
  });

  it('a call waiting in a full queue times out instead of hanging', async () => {
    orchestrator = createOrchestrator({ queues: { one: { maxConcurrency: 1 } } });
    orchestrator.register(
      testProvider('p', {
        slow: {
          spec: { queue: 'one' },
          run: async (_a, ctx) => await delay(300, ctx.signal).then(() => ok('slow')),
        },
      }),
    );
    const first = orchestrator.call('p__slow', {});
    const second = await orchestrator.call('p__slow', {}, { timeoutMs: 50 });
    expect(!second.ok && second.error.code).toBe('TIMEOUT');
    expect((await first).ok).toBe(true);
  });
});

describe('timeouts', () => {
  function sleeper(spec: Record<string, unknown> = {}) {
    return {
      spec,
      run: async (_a: Record<string, unknown>, ctx: { signal: AbortSignal }) => {
        await delay(1000, ctx.signal);
        return ok('slept');
      },
    };
  }

  it('per call beats per tool beats per provider beats global', async () => {
    orchestrator = createOrchestrator({ timeoutMs: 400 });
    orchestrator.register(testProvider('a', { plain: sleeper(), tool: sleeper({ timeoutMs: 60 }) }), {
      timeoutMs: 120,
    });
    orchestrator.register(testProvider('b', { plain: sleeper() }));
    const message = async (name: string, timeoutMs?: number): Promise<string> => {
      const result = await orchestrator.call(name, {}, timeoutMs ? { timeoutMs } : {});
      return result.ok ? 'ok' : result.error.message;
    };
    expect(await message('a__tool', 30)).toContain('within 30 ms');
    expect(await message('a__tool')).toContain('within 60 ms');
    expect(await message('a__plain')).toContain('within 120 ms');
    expect(await message('b__plain')).toContain('within 400 ms');
  });

  it('the caller abort reaches the provider as an aborted signal', async () => {
    orchestrator = createOrchestrator();
    let reason: unknown;
    orchestrator.register(
      testProvider('a', {
        wait: {
          run: (_a, ctx) =>
            new Promise((resolve) =>
              ctx.signal.addEventListener('abort', () => {
                reason = ctx.signal.reason;
                resolve(ok('stopped'));
              }),
            ),
        },
      }),
    );
    const controller = new AbortController();
    const pending = orchestrator.call('a__wait', {}, { signal: controller.signal });
    await delay(20);
    controller.abort(new Error('user pressed stop'));
    const result = await pending;
    expect(!result.ok && result.error).toMatchObject({
      code: 'CANCELLED',
      message: 'the call was cancelled: user pressed stop',
    });
    expect(String(reason)).toContain('user pressed stop');
  });

  it('ctx.onAbort hears a caller abort and a timeout without a signal, and a removed listener stays quiet', async () => {
    orchestrator = createOrchestrator();
    const heard: string[] = [];
    orchestrator.register(
      testProvider('a', {
        wait: {
          run: (_a, ctx) =>
            new Promise((resolve) => {
              const quiet = onAbort(ctx, () => heard.push('removed listener ran'));
              quiet();
              onAbort(ctx, (reason) => {
                heard.push(errorMessage(reason));
                // late registrations run at once
                onAbort(ctx, () => heard.push('late'));
                resolve(ok('stopped'));
              });
            }),
        },
      }),
    );
    const controller = new AbortController();
    const pending = orchestrator.call('a__wait', {}, { signal: controller.signal });
    await delay(20);
    controller.abort(new Error('user pressed stop'));
    expect((await pending).ok).toBe(false);
    const timedOut = await orchestrator.call('a__wait', {}, { timeoutMs: 30 });
    expect(!timedOut.ok && timedOut.error.code).toBe('TIMEOUT');
    await waitFor(() => heard.length >= 4);
    expect(heard[0]).toContain('user pressed stop');
    expect(heard[1]).toBe('late');
    expect(heard[2]).toContain('did not finish within 30 ms');
    expect(heard).not.toContain('removed listener ran');
  });

  it('an already aborted signal cancels before the provider runs', async () => {
    orchestrator = createOrchestrator();
    let ran = false;
    orchestrator.register(
      testProvider('a', {
        t: {
          run: () => {
            ran = true;
            return ok('x');
          },
        },
      }),
    );
    const result = await orchestrator.call('a__t', {}, { signal: AbortSignal.abort() });
    expect(!result.ok && result.error.code).toBe('CANCELLED');
    expect(ran).toBe(false);
  });
});

describe('cancel and close', () => {
  it('cancel() stops running and waiting calls; close() closes providers and refuses new calls', async () => {
    orchestrator = createOrchestrator({ queues: { one: { maxConcurrency: 1 } } });
    const provider = testProvider('p', {
      slow: {
        spec: { queue: 'one' },
        run: async (_a, ctx) => {
          await delay(5000, ctx.signal);
          return ok('never');
        },
      },
    });
    orchestrator.register(provider);
    await orchestrator.warmup();
    const running = orchestrator.call('p__slow', {});
    const waiting = orchestrator.call('p__slow', {});
    await waitFor(() => orchestrator.stats().queues.one?.waiting === 1);
    orchestrator.cancel();
    const [a, b] = await Promise.all([running, waiting]);
    expect(!a.ok && a.error.code).toBe('CANCELLED');
    expect(!b.ok && b.error.code).toBe('CANCELLED');
    expect(orchestrator.stats()).toMatchObject({ inflight: 0, queues: { one: { running: 0, waiting: 0 } } });
    await orchestrator.close();
    expect(provider.closed).toBe(1);
    const after = await orchestrator.call('p__slow', {});
    expect(!after.ok && after.error.code).toBe('PROVIDER_UNAVAILABLE');
  });
});
