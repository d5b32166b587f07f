/** A scheduled expiry. */
export interface DeadlineEntry {
  readonly deadline: number;
  readonly onExpire: () => void;
}

/** An entry and where it sits in the timer's array (-1 once removed or expired). */
interface Slot extends DeadlineEntry {
  index: number;
}

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
 * One timer for all call deadlines. Entries live in an array and know their index, so adding
 * is a push and removing swaps the last entry into the hole: no hash table churn (a Set that
 * gains and loses one entry per call rehashes and allocates every few calls). The timer is
 * re-armed only for an earlier deadline; when it fires it expires what is due and re-arms for
 * the next.
 */
export class DeadlineTimer {
  private readonly entries: Slot[] = [];
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
    const entry: Slot = { deadline, onExpire, index: this.entries.length };
    this.entries.push(entry);
    if (deadline < this.armedFor) this.arm(deadline);
    return entry;
  }

  remove(entry: DeadlineEntry): void {
    const slot = entry as Slot;
    const index = slot.index;
    if (index < 0 || this.entries[index] !== slot) return;
    const last = this.entries.pop() as Slot;
    if (last !== slot) {
      this.entries[index] = last;
      last.index = index;
    }
    slot.index = -1;
  }

  get size(): number {
    return this.entries.length;
  }

  clear(): void {
    for (const entry of this.entries) entry.index = -1;
    this.entries.length = 0;
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
    for (const entry of this.entries) {
      if (entry.deadline <= now) due.push(entry);
      else if (entry.deadline < next) next = entry.deadline;
    }
    for (const entry of due) this.remove(entry);
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
    for (const entry of due) entry.onExpire();
  }
}
