import { ToolError } from '@toolplane/core';
import type { Announcement } from '../runner/runner-types.js';

/** Options of the announce queue. */
export interface AnnounceOptions {
  /** Quiet time after the last result before a batch is delivered (default 250 ms). */
  readonly debounceMs?: number;
  /** Longest a result waits for quiet (default 2 000 ms). */
  readonly maxWaitMs?: number;
  /** A batch is delivered at once when it holds this many results (default 10). */
  readonly maxBatch?: number;
}

/**
 * Results of background children on their way to one parent: results that arrive close
 * together are delivered as one batch (one message to the parent's model instead of several).
 */
export class AnnounceQueue {
  private buffer: Announcement[] = [];
  private delivered: Announcement[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firstAt = 0;
  private readonly waiters = new Set<() => void>();
  /** Batches delivered so far (for tests and `list`). */
  batches = 0;
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  private readonly maxBatch: number;

  constructor(
    options: AnnounceOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.debounceMs = options.debounceMs ?? 250;
    this.maxWaitMs = options.maxWaitMs ?? 2_000;
    this.maxBatch = options.maxBatch ?? 10;
  }

  /** Results not yet taken: buffered, or delivered and waiting for `take`. */
  get buffered(): number {
    return this.buffer.length + this.delivered.length;
  }

  push(item: Announcement): void {
    if (this.buffer.length === 0) this.firstAt = this.now();
    this.buffer.push(item);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const waited = this.now() - this.firstAt;
    if (this.buffer.length >= this.maxBatch || waited >= this.maxWaitMs) {
      this.flush();
      return;
    }
    this.timer = setTimeout(() => this.flush(), Math.min(this.debounceMs, this.maxWaitMs - waited));
  }

  /** Delivers what is buffered as one batch. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    this.delivered.push(...this.buffer);
    this.buffer = [];
    this.batches++;
    for (const wake of [...this.waiters]) wake();
  }

  /** Takes every delivered result. */
  take(): Announcement[] {
    const out = this.delivered;
    this.delivered = [];
    return out;
  }

  /** The next delivered batch (at once when one is waiting). */
  next(signal: AbortSignal): Promise<Announcement[]> {
    if (this.delivered.length > 0) return Promise.resolve(this.take());
    return new Promise((resolve, reject) => {
      const done = (): void => {
        this.waiters.delete(done);
        signal.removeEventListener('abort', stop);
        resolve(this.take());
      };
      const stop = (): void => {
        this.waiters.delete(done);
        reject(new ToolError('CANCELLED', 'stopped waiting for subagent results'));
      };
      if (signal.aborted) {
        stop();
        return;
      }
      this.waiters.add(done);
      signal.addEventListener('abort', stop, { once: true });
    });
  }

  /** Drops everything and stops the timer. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.buffer = [];
  }
}
