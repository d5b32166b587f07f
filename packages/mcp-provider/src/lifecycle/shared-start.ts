import { onAbort } from '@toolplane/core';
import type { McpSession } from '../session/session.js';

/**
 * A server start in progress and who waits on it. Callers that come while it runs join it;
 * one who cancels gets the cancellation error at once while it goes on for the others. It is
 * abandoned (its own signal aborted) only when every caller waiting on it has cancelled, and
 * never while one of them cannot cancel (a caller without a signal, or a restart).
 */
export class SharedStart {
  /** The open session, or why the start failed. */
  readonly promise: Promise<McpSession>;
  /** Aborted when the start is abandoned. */
  private readonly abandon = new AbortController();
  /** Callers with a signal still waiting. */
  private waiting = 0;

  /**
   * Runs `open` with a signal that aborts when the start is abandoned. `pinned`: someone waits
   * who cannot cancel (a restart), so it is never abandoned.
   */
  constructor(
    open: (abandoned: AbortSignal) => Promise<McpSession>,
    private pinned: boolean,
  ) {
    this.promise = open(this.abandon.signal);
  }

  /** True once every caller who waited has cancelled. */
  get abandoned(): boolean {
    return this.abandon.signal.aborted;
  }

  /**
   * Waits on the start for one caller. Its cancel rejects it with `cancelled()` at once while
   * others still wait; the last one to cancel abandons the start and is answered once the start
   * has been torn down (no process left).
   */
  join(signal: AbortSignal | undefined, cancelled: () => Error): Promise<McpSession> {
    if (!signal) {
      this.pinned = true;
      return this.promise;
    }
    this.waiting++;
    return new Promise((resolve, reject) => {
      let settled = false;
      const stopFollowing = onAbort({ signal }, () => {
        if (settled) return;
        settled = true;
        this.waiting--;
        if (this.waiting > 0 || this.pinned) {
          reject(cancelled());
          return;
        }
        this.abandon.abort();
        const answer = (): void => reject(cancelled());
        this.promise.then(answer, answer);
      });
      this.promise.then(
        (session) => {
          if (settled) return;
          settled = true;
          stopFollowing();
          resolve(session);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          stopFollowing();
          reject(error);
        },
      );
    });
  }
}
