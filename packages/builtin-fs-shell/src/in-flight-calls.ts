import { type ToolContext, extendContext, onAbort } from '@toolplane/core';
import { settlesWithin } from './executor/end-within.js';

/**
 * The calls a provider is running, so that `close()` can cancel them instead of waiting for each
 * to end by itself (a `web_fetch` of a page that never ends would hold it for the call's whole
 * timeout). Each call runs with a signal of its own that aborts when the caller's does or when
 * {@link cancelAll} runs; the caller's signal gets one listener for the call's length only.
 */
export class InFlightCalls {
  private readonly calls = new Map<AbortController, Promise<unknown>>();

  /** Calls running now. */
  get size(): number {
    return this.calls.size;
  }

  /** Runs `work` with a copy of `ctx` whose signal also aborts on {@link cancelAll}. */
  run<T>(ctx: ToolContext, work: (ctx: ToolContext) => Promise<T>): Promise<T> {
    const call = new AbortController();
    const stop = onAbort(ctx, (reason) => call.abort(reason));
    let running: Promise<T>;
    try {
      running = work(extendContext(ctx, { signal: call.signal }));
    } catch (error) {
      stop();
      return Promise.reject(error);
    }
    const settled = running.finally(() => {
      stop();
      this.calls.delete(call);
    });
    this.calls.set(call, settled);
    return settled;
  }

  /**
   * Aborts every running call with `reason` and waits until they have settled, or `graceMs`
   * at most (a call that ignores its signal is then left to end by itself); true when all did.
   */
  async cancelAll(reason: unknown, graceMs: number): Promise<boolean> {
    const running = [...this.calls];
    for (const [call] of running) call.abort(reason);
    return settlesWithin(Promise.allSettled(running.map(([, settled]) => settled)), graceMs);
  }
}
