import type { SqlClient } from '../storage/database.js';
import { RATE_WINDOW_MS, type RateVerdict, addToWindow, dropOlderWindows } from './rate-counter.js';

interface KeyWindow {
  readonly window: number;
  /** The count of every instance, as of the last exchange with the database. */
  known: number;
  /** Calls admitted here since then, not yet sent. */
  pending: number;
  /** Calls admitted here that the running exchange is sending. */
  sending: number;
  /** Set while the first exchange of this window (the read of the shared count) runs. */
  loading: Promise<void> | undefined;
}

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  readonly limitPerMinute: number;
  /** How often counts go to (and come back from) the database; 250 ms by default. */
  readonly flushMs?: number;
  readonly now?: () => number;
  /**
   * Whether other instances count into the same database (PostgreSQL). When not, a flush only
   * sends new calls and never reads back counts that cannot have changed.
   */
  readonly shared?: boolean;
  /** Told when a flush fails (the counts stay pending and go with the next one). */
  readonly onError?: (error: unknown) => void;
}

/**
 * Per-key call limits in fixed one-minute windows, counted in memory and exchanged with the
 * database every `flushMs`: each flush adds this instance's new calls to the key's shared row
 * and reads back the count of every instance. The first call of a key in a window reads the
 * shared count before it is judged. On one instance the limit is exact; across instances a key
 * may pass its limit by the calls the other instances admit in one flush interval (each
 * instance alone never admits more than the limit).
 */
export class RateLimiter {
  private readonly keys = new Map<string, KeyWindow>();
  private readonly limit: number;
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: SqlClient,
    private readonly options: RateLimiterOptions,
  ) {
    this.limit = options.limitPerMinute;
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? 250);
    this.timer.unref();
  }

  /** Counts one call of `keyId` when it fits the limit; refuses it (uncounted) when it does not. */
  async check(keyId: string): Promise<RateVerdict> {
    const now = this.now();
    const window = Math.floor(now / RATE_WINDOW_MS);
    let entry = this.keys.get(keyId);
    if (!entry || entry.window < window) {
      const fresh: KeyWindow = { window, known: 0, pending: 0, sending: 0, loading: undefined };
      fresh.loading = this.load(keyId, fresh);
      this.keys.set(keyId, fresh);
      entry = fresh;
    }
    if (entry.loading) await entry.loading;
    const count = entry.known + entry.sending + entry.pending;
    if (count >= this.limit)
      return { allowed: false, count, retryAfterMs: (window + 1) * RATE_WINDOW_MS - now };
    entry.pending += 1;
    return { allowed: true, count: count + 1, retryAfterMs: 0 };
  }

  private async load(keyId: string, entry: KeyWindow): Promise<void> {
    try {
      entry.known = await addToWindow(this.db, keyId, entry.window, 0);
      await dropOlderWindows(this.db, keyId, entry.window);
    } catch (error) {
      // judged on this instance's own count until the database answers again
      this.options.onError?.(error);
    } finally {
      entry.loading = undefined;
    }
  }

  /** Sends the pending counts and reads back the shared ones (one flush at a time). */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    const window = Math.floor(this.now() / RATE_WINDOW_MS);
    for (const [keyId, entry] of this.keys) {
      if (entry.window < window && entry.pending === 0) {
        this.keys.delete(keyId);
        continue;
      }
      if (entry.loading) continue;
      const delta = entry.pending;
      if (delta === 0 && (this.options.shared === false || entry.window < window)) continue;
      entry.pending = 0;
      entry.sending = delta;
      try {
        const shared = await addToWindow(this.db, keyId, entry.window, delta);
        // calls admitted while the exchange ran stay pending for the next one
        entry.known = Math.max(entry.known + delta, shared);
      } catch (error) {
        entry.pending += delta;
        this.options.onError?.(error);
        return;
      } finally {
        entry.sending = 0;
      }
    }
  }

  /** Stops the timer and sends what is pending. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    await this.flush();
  }
}
