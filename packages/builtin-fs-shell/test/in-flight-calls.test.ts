import { getEventListeners } from 'node:events';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { InFlightCalls } from '../src/in-flight-calls.js';

describe('InFlightCalls', () => {
  it('aborts running calls with the reason given, and forgets them once settled', async () => {
    const calls = new InFlightCalls();
    const seen: unknown[] = [];
    const running = calls.run(
      createToolContext(),
      (ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            seen.push(ctx.signal.reason);
            resolve('stopped');
          });
        }),
    );
    expect(calls.size).toBe(1);
    const reason = new Error('closing');
    expect(await calls.cancelAll(reason, 10_000)).toBe(true);
    expect(await running).toBe('stopped');
    expect(seen).toEqual([reason]);
    expect(calls.size).toBe(0);
  });

  it('stops waiting after the grace for a call that ignores its signal, which keeps running', async () => {
    const calls = new InFlightCalls();
    let finish = (): void => {};
    const running = calls.run(createToolContext(), () => new Promise<void>((resolve) => (finish = resolve)));
    expect(await calls.cancelAll(new Error('closing'), 20)).toBe(false);
    expect(calls.size).toBe(1);
    finish();
    await running;
    expect(calls.size).toBe(0);
  });

  it("follows the caller's signal and lets go of it when the call ends", async () => {
    const calls = new InFlightCalls();
    const caller = new AbortController();
    const ctx = createToolContext({ signal: caller.signal });
    const aborted = calls.run(
      ctx,
      (callCtx) =>
        new Promise<unknown>((resolve) => {
          callCtx.signal.addEventListener('abort', () => resolve(callCtx.signal.reason));
        }),
    );
    caller.abort('from the caller');
    expect(await aborted).toBe('from the caller');
    const other = new AbortController();
    for (let i = 0; i < 1000; i++)
      await calls.run(createToolContext({ signal: other.signal }), async () => i);
    expect(getEventListeners(other.signal, 'abort').length).toBeLessThanOrEqual(1);
  });

  it('settles a call whose work throws at once, and forgets it', async () => {
    const calls = new InFlightCalls();
    await expect(
      calls.run(createToolContext(), () => {
        throw new Error('sync failure');
      }),
    ).rejects.toThrow('sync failure');
    expect(calls.size).toBe(0);
  });
});
