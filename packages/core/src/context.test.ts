import { expect, it } from 'vitest';
import { createId, createToolContext, extendContext } from './context.js';

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
