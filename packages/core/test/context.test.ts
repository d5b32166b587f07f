import { getEventListeners } from 'node:events';
import { expect, it } from 'vitest';
import { createId, createToolContext, extendContext, onAbort } from '../src/context.js';

it('creates unique ids with a prefix', () => {
  const ids = new Set(Array.from({ length: 1000 }, () => createId('call')));
  expect(ids.size).toBe(1000);
  expect([...ids][0]).toMatch(/^call_[a-z0-9]+_[a-z0-9]+$/);
});

it('fills a context with defaults', () => {
  const ctx = createToolContext({ session: { id: 's' } });
  expect(ctx.session).toEqual({ id: 's', depth: 0 });
  expect(ctx.trace).toEqual({ originId: 's', callPath: [] });
  expect(ctx.signal.aborted).toBe(false);
});

it('extendContext keeps accessors that a spread would lose', () => {
  const controller = new AbortController();
  const proto = {
    get signal() {
      return controller.signal;
    },
  };
  const { signal: _eager, ...fields } = createToolContext({ callId: 'c1' });
  const lazy = Object.assign(Object.create(proto), fields);
  const seen: string[] = [];
  const extended = extendContext(lazy, { progress: (u) => seen.push(String(u.message)) });
  expect(extended.signal).toBe(controller.signal);
  expect(extended.callId).toBe('c1');
  extended.progress({ message: 'x' });
  expect(seen).toEqual(['x']);
  expect(({ ...lazy } as { signal?: unknown }).signal).toBeUndefined();
  const replaced = new AbortController().signal;
  expect(extendContext(lazy, { signal: replaced }).signal).toBe(replaced);
});

it('onAbort follows the signal of a context without its own onAbort', () => {
  const controller = new AbortController();
  const ctx = createToolContext({ signal: controller.signal });
  const reasons: unknown[] = [];
  const removed = onAbort(ctx, (reason) => reasons.push(`removed ${String(reason)}`));
  onAbort(ctx, (reason) => reasons.push(reason));
  removed();
  controller.abort('stop');
  controller.abort('again');
  expect(reasons).toEqual(['stop']);
  // already aborted: the listener runs at once
  onAbort(ctx, (reason) => reasons.push(`late ${String(reason)}`));
  expect(reasons).toEqual(['stop', 'late stop']);
});

it('onAbort prefers the context own onAbort, and a replaced signal drops it', () => {
  const registered: Array<(reason: unknown) => void> = [];
  const ctx = createToolContext({
    onAbort: (listener) => {
      registered.push(listener);
      return () => registered.splice(registered.indexOf(listener), 1);
    },
  });
  const seen: unknown[] = [];
  const remove = onAbort(ctx, (reason) => seen.push(reason));
  expect(registered).toHaveLength(1);
  for (const listener of registered) listener('cancelled');
  expect(seen).toEqual(['cancelled']);
  remove();
  expect(registered).toHaveLength(0);
  const controller = new AbortController();
  const moved = extendContext(ctx, { signal: controller.signal });
  onAbort(moved, (reason) => seen.push(reason));
  expect(registered).toHaveLength(0);
  controller.abort('moved');
  expect(seen).toEqual(['cancelled', 'moved']);
});

it('onAbort puts one listener on a signal however many calls share it', () => {
  const controller = new AbortController();
  const ctx = createToolContext({ signal: controller.signal });
  const heard: number[] = [];
  const removers = Array.from({ length: 50 }, (_, i) => onAbort(ctx, () => heard.push(i)));
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
  for (const remove of removers.slice(0, 48)) remove();
  controller.abort();
  expect(heard).toEqual([48, 49]);
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});

it('contexts made without a signal do not share one: listeners a tool leaves go with its context', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(warning.name);
  };
  process.on('warning', onWarning);
  try {
    const signals = new Set<AbortSignal>();
    let most = 0;
    for (let i = 0; i < 10_000; i++) {
      const ctx = createToolContext();
      // a tool that kills its child on abort, counting on the signal ending with the call
      ctx.signal.addEventListener('abort', () => {}, { once: true });
      signals.add(ctx.signal);
      most = Math.max(most, getEventListeners(ctx.signal, 'abort').length);
    }
    // one shared signal for every such context would collect all 10,000 listeners for good
    expect(most).toBe(1);
    expect(signals.size).toBe(10_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((name) => name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
});

it('a context made without a signal never aborts, and copies of it share its signal', () => {
  const ctx = createToolContext();
  expect(ctx.signal.aborted).toBe(false);
  expect(ctx.signal).toBe(ctx.signal);
  expect(extendContext(ctx, { callId: 'other' }).signal).toBe(ctx.signal);
  expect({ ...ctx }.signal).toBe(ctx.signal);
  const heard: unknown[] = [];
  const stop = onAbort(ctx, (reason) => heard.push(reason));
  stop();
  expect(heard).toEqual([]);
});
