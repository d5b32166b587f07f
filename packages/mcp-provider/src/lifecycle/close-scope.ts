import { type AbortSource, type ToolContext, onAbort } from '@toolplane/core';
import { eitherSignal } from './either-signal.js';

/** What closing one provider ends; see {@link closeScope}. */
export interface CloseScope {
  /** Runs `work` with the caller's signal, ended by the close too (a shared server). */
  untilClosed<T>(signal: AbortSignal | undefined, work: (signal?: AbortSignal) => Promise<T>): Promise<T>;
  /** A call's cancellation: the caller's, and the close (a shared server). */
  callAbort(ctx: ToolContext): AbortSource;
  /** The provider closes: what waits through this scope ends with `reason`. */
  end(reason: unknown): void;
}

/**
 * A shared server goes on for its other providers when one closes, so closing ends what this
 * provider waits on itself: its starts (through their signal) and its calls in flight (through
 * their cancellation, which tells the server). A server of its own is stopped instead, which
 * ends both, so without `shared` the caller's signal and context are used as they are.
 */
export function closeScope(shared: boolean): CloseScope {
  const lifetime = new AbortController();
  const closing = new Set<(reason: unknown) => void>();
  return {
    async untilClosed(signal, work) {
      if (!shared) return work(signal);
      if (!signal) return work(lifetime.signal);
      const either = eitherSignal([signal, lifetime.signal]);
      try {
        return await work(either.signal);
      } finally {
        either.release();
      }
    },
    callAbort: (ctx) =>
      shared
        ? {
            get signal() {
              return ctx.signal;
            },
            onAbort(listener) {
              const stopCaller = onAbort(ctx, listener);
              closing.add(listener);
              return () => {
                stopCaller();
                closing.delete(listener);
              };
            },
          }
        : ctx,
    end(reason) {
      lifetime.abort(reason);
      for (const listener of [...closing]) listener(reason);
      closing.clear();
    },
  };
}
