import type { McpSession } from '../session/session.js';

interface Waiter {
  resolve(session: McpSession): void;
  reject(error: unknown): void;
}

/**
 * Callers waiting for a server that is restarting: each gets the next session, or the error
 * the server fails with, or its own error when it cancels or waits longer than it may.
 */
export class RestartWaiters {
  private waiters: Waiter[] = [];

  /**
   * Waits for `resolveAll` or `rejectAll`; after `timeoutMs` rejects with `timedOut()`, and
   * when `signal` aborts (or has) with `cancelled()`.
   */
  wait(
    signal: AbortSignal | undefined,
    timeoutMs: number,
    timedOut: () => unknown,
    cancelled: () => unknown,
  ): Promise<McpSession> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        settle();
        reject(timedOut());
      }, timeoutMs);
      const onAbort = (): void => {
        settle();
        reject(cancelled());
      };
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters = this.waiters.filter((entry) => entry !== waiter);
      };
      const waiter: Waiter = {
        resolve: (session) => {
          settle();
          resolve(session);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Every waiter gets the session. */
  resolveAll(session: McpSession): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.resolve(session);
  }

  /** Every waiter gets the error. */
  rejectAll(error: unknown): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }
}
