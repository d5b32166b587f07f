import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { codeOf, delay, echo, testProvider, thrownBy, waitFor } from './helpers.js';

// close() called twice and at once, and what is still handed to an orchestrator after it.

let orchestrator: ToolsOrchestrator | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await orchestrator?.close();
  orchestrator = undefined;
});

/** A provider whose close() waits for a real child process to exit (a server shutting down). */
function slowClosing(): {
  provider: ReturnType<typeof testProvider>;
  child: () => ChildProcess | undefined;
  closed: () => boolean;
} {
  let child: ChildProcess | undefined;
  let closed = false;
  const provider = testProvider(
    'p',
    { echo: { spec: { sideEffect: 'none' }, run: () => ok('hi') } },
    {
      close: async () => {
        child = spawn(process.execPath, ['-e', "process.stdin.once('data', () => process.exit(0))"], {
          stdio: ['pipe', 'ignore', 'ignore'],
        });
        children.push(child);
        await once(child, 'exit');
        closed = true;
      },
    },
  );
  return { provider, child: () => child, closed: () => closed };
}

describe('close() called twice', () => {
  it('a second close() while the first runs resolves only once the providers are closed', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const { provider, child, closed } = slowClosing();
    local.register(provider);
    await local.warmup();
    const settled: string[] = [];
    const first = local.close().then(() => settled.push('first'));
    const second = local.close().then(() => settled.push('second'));
    await waitFor(() => child() !== undefined);
    // both are still waiting for the provider's child to exit
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([]);
    child()?.stdin?.write('bye\n');
    await Promise.all([first, second]);
    expect(closed()).toBe(true);
    expect(settled.sort()).toEqual(['first', 'second']);
    // and a third, after it, resolves at once
    await local.close();
  });
});

describe('what is handed to a closed orchestrator', () => {
  it('use() after close() is PROVIDER_UNAVAILABLE, as register() is', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    await local.close();
    let closedMiddleware = 0;
    const error = thrownBy(() =>
      local.use({
        name: 'late',
        phase: 'gate',
        handle: (call, next) => next(call),
        close: async () => {
          closedMiddleware++;
        },
      }),
    );
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.message).toMatch(/the orchestrator is closed; create a new one/);
    expect(closedMiddleware).toBe(0);
    expect(thrownBy(() => local.register(testProvider('q', {}))).message).toMatch(/closed/);
    expect(codeOf(await local.call('p__echo', {}))).toBe('PROVIDER_UNAVAILABLE');
  });
});

describe('thousands of calls against a concurrency limit', () => {
  it('3000 calls on 3 slots: never more than 3 run, the line empties as calls end, time out or are cancelled', async () => {
    const local = createOrchestrator({ queues: { db: { maxConcurrency: 3 } } });
    orchestrator = local;
    let running = 0;
    let peak = 0;
    let ran = 0;
    local.register(
      testProvider('p', {
        q: {
          spec: { queue: 'db', sideEffect: 'none' },
          run: async (args, ctx) => {
            running++;
            ran++;
            peak = Math.max(peak, running);
            // a turn of the event loop, so the calls overlap; a stopped call stops at once (its
            // slot is freed when it is stopped, so one that went on would run beside the next)
            await new Promise<void>((resolve) => {
              const stop = ctx.onAbort?.(() => resolve());
              setImmediate(() => {
                stop?.();
                resolve();
              });
            });
            running--;
            return ok(String(args.i));
          },
        },
      }),
    );
    await local.warmup();
    const calls = Array.from({ length: 3000 }, (_, i) =>
      // every third call has a deadline it may reach in line; every fifth is cancelled by its caller
      local.call('p__q', { i }, { callId: `c${i}`, ...(i % 3 === 0 ? { timeoutMs: 1 } : {}) }),
    );
    expect(local.stats().queues.db).toMatchObject({ running: 3 });
    for (let i = 0; i < 3000; i += 5) local.cancel(`c${i}`);
    const results = await Promise.all(calls);
    const codes = new Set(results.map(codeOf));
    expect([...codes].every((code) => ['OK', 'TIMEOUT', 'CANCELLED'].includes(code))).toBe(true);
    const succeeded = results.filter((result) => result.ok).length;
    expect(succeeded).toBeGreaterThan(0);
    expect(succeeded).toBeLessThanOrEqual(ran);
    // cancelled in line: they never ran
    expect(results.filter((result) => codeOf(result) === 'CANCELLED').length).toBeGreaterThan(500);
    expect(peak).toBe(3);
    expect(local.stats()).toMatchObject({ inflight: 0, queues: { db: { running: 0, waiting: 0 } } });
    // the queue still serves
    expect(codeOf(await local.call('p__q', { i: 'after' }, { callId: 'c5' }))).toBe('OK');
  });
});

describe('close() with providers and middleware that misbehave', () => {
  it('a close() that throws at once or hangs does not keep the others open nor the stored outputs on disk', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orchestrator-close-'));
    const outputs = join(dir, 'outputs');
    try {
      const local = createOrchestrator({ closeTimeoutMs: 200, output: { maxBytes: 1024, dir: outputs } });
      const warnings: string[] = [];
      local.on('warning', (warning) => warnings.push(warning.message));
      const good = testProvider('good', { big: { run: () => ok('x'.repeat(10_000)) } });
      local.register(
        testProvider(
          'throws',
          { echo },
          {
            close: () => {
              throw new Error('close exploded');
            },
          },
        ),
      );
      local.register(testProvider('hangs', { echo }, { close: () => new Promise<void>(() => {}) }));
      local.register(good);
      local.use({
        name: 'sticky',
        phase: 'transform',
        close: () => {
          throw new Error('middleware close exploded');
        },
      });
      expect((await local.call('good__big', {})).meta?.truncated).toBeDefined();
      expect((await readdir(outputs)).length).toBe(1);
      await local.close();
      expect(good.closed).toBe(1);
      expect(existsSync(outputs)).toBe(false);
      expect(warnings).toEqual(
        expect.arrayContaining([
          'provider "throws" failed to close: close exploded',
          'provider "hangs" did not close within 200 ms; it was left behind',
          'middleware "sticky" failed to close: middleware close exploded',
        ]),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('close() during a start that hangs ends the waiting call at once, without waiting out startTimeoutMs', async () => {
    orchestrator = createOrchestrator({ startTimeoutMs: 600_000 });
    let startSignal: AbortSignal | undefined;
    orchestrator.register(
      testProvider(
        't',
        { echo },
        {
          start: (signal) => {
            startSignal = signal;
            return new Promise<void>(() => {});
          },
        },
      ),
    );
    const pending = orchestrator.call('t__echo', {});
    for (let i = 0; i < 200 && !startSignal; i++) await delay(5);
    await orchestrator.close();
    const result = await pending;
    expect(codeOf(result)).toBe('PROVIDER_UNAVAILABLE');
    expect(startSignal?.aborted).toBe(true);
  });
});
