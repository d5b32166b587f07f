import { getEventListeners } from 'node:events';
import { afterEach, expect, it } from 'vitest';
import { type ToolContext, ok, onAbort } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, testProvider, waitFor } from '../helpers.js';

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

it('a stop listener that removes itself when it runs does not keep the next one from running', async () => {
  const local = createOrchestrator();
  orchestrator = local;
  const heard: string[] = [];
  local.register(
    testProvider('p', {
      wait: {
        spec: { sideEffect: 'none' },
        run: (_args, ctx: ToolContext) =>
          new Promise((resolve) => {
            // the usual shape: a listener that cleans up after itself, then one that ends the work
            const first = onAbort(ctx, () => {
              first();
              heard.push('first');
            });
            onAbort(ctx, () => {
              heard.push('second');
              resolve(ok('stopped'));
            });
          }),
      },
    }),
  );
  const call = local.call('p__wait', {}, { callId: 'c-1' });
  await waitFor(() => local.stats().inflight === 1);
  await new Promise((resolve) => setImmediate(resolve));
  expect(local.cancel('c-1')).toBe(true);
  expect(codeOf(await call)).toBe('CANCELLED');
  // a removal while the list runs must not shift it and skip 'second'
  expect(heard).toEqual(['first', 'second']);
});

it('10,000 calls on one caller signal leave at most one listener on it, and no warning', async () => {
  const local = createOrchestrator({ maxConcurrency: 4 });
  orchestrator = local;
  local.register(
    testProvider('p', {
      quick: { spec: { sideEffect: 'none' }, run: async (args) => ok(String(args.i)) },
      listening: {
        spec: { sideEffect: 'none' },
        run: async (_args, ctx: ToolContext) => {
          // a tool that reads ctx.signal and listens on it
          const signal = ctx.signal;
          const stop = (): void => {};
          signal.addEventListener('abort', stop, { once: true });
          signal.removeEventListener('abort', stop);
          return ok('listened');
        },
      },
    }),
  );
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(warning.name);
  };
  process.on('warning', onWarning);
  try {
    const controller = new AbortController();
    const before = getEventListeners(controller.signal, 'abort').length;
    for (let round = 0; round < 100; round++) {
      const calls = Array.from({ length: 100 }, (_, i) =>
        local.call(i % 2 === 0 ? 'p__quick' : 'p__listening', { i }, { signal: controller.signal }),
      );
      const results = await Promise.all(calls);
      expect(results.every((result) => result.ok)).toBe(true);
    }
    expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(before + 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((name) => name === 'MaxListenersExceededWarning')).toEqual([]);
    expect(local.stats().inflight).toBe(0);
  } finally {
    process.off('warning', onWarning);
  }
});
