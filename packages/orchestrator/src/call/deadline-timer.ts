import { type Indexed, IndexedList } from './indexed-list.js';

/** A scheduled expiry. */
export interface DeadlineEntry {
  readonly deadline: number;
  readonly onExpire: () => void;
}

/** An entry and where it sits in the timer's list (-1 once removed or expired). */
interface Slot extends DeadlineEntry, Indexed {}

/** Clock and timers, injectable for tests. */
export interface TimerHost {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: TimerHost = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // a pending deadline alone must not keep the process alive
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * One timer for all call deadlines, kept in an {@link IndexedList} (no hash table churn per
 * call). The timer is re-armed only for an earlier deadline; when it fires it expires what is
 * due and re-arms for the next.
 */
export class DeadlineTimer {
  private readonly entries = new IndexedList<Slot>();
  private handle: unknown;
  private armedFor = Number.POSITIVE_INFINITY;
  private readonly timers: TimerHost;

  constructor(timers: TimerHost = realTimers) {
    this.timers = timers;
  }

  now(): number {
    return this.timers.now();
  }

  add(deadline: number, onExpire: () => void): DeadlineEntry {
    const entry: Slot = { deadline, onExpire, listIndex: -1 };
    this.entries.add(entry);
    if (deadline < this.armedFor) this.arm(deadline);
    return entry;
  }

  remove(entry: DeadlineEntry): void {
    this.entries.delete(entry as Slot);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  private arm(deadline: number): void {
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.armedFor = deadline;
    this.handle = this.timers.setTimeout(
      () => this.fire(),
      Math.min(2 ** 31 - 1, Math.max(0, deadline - this.timers.now())),
    );
  }

  private fire(): void {
    this.handle = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = this.timers.now();
    let next = Number.POSITIVE_INFINITY;
    const due: Slot[] = [];
    this.entries.forEach((entry) => {
      if (entry.deadline <= now) due.push(entry);
      else if (entry.deadline < next) next = entry.deadline;
    });
    for (const entry of due) this.remove(entry);
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
    for (const entry of due) entry.onExpire();
  }
}
