import { ToolError } from '@toolplane/core';

interface Waiter {
  readonly priority: number;
  readonly seq: number;
  resolve: () => void;
  reject: (error: ToolError) => void;
  settled: boolean;
}

/** Options of a named queue. */
export interface QueueOptions {
  /** Calls running at once (default: unlimited). */
  readonly maxConcurrency?: number;
}

/**
 * A named concurrency limit with priorities. Taking a free slot is synchronous (no promise,
 * no timer): the common case costs a counter increment. Waiters are ordered by priority
 * (higher first) then arrival; an aborted waiter leaves the line at once.
 */
export class NamedQueue {
  readonly name: string;
  maxConcurrency: number;
  running = 0;
  private readonly heap: Waiter[] = [];
  private seq = 0;

  constructor(name: string, options: QueueOptions = {}) {
    this.name = name;
    this.maxConcurrency = options.maxConcurrency ?? Number.POSITIVE_INFINITY;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.heap.length;
  }

  /** Takes a slot now if one is free and nobody waits; returns false otherwise. */
  tryAcquire(): boolean {
    if (this.running < this.maxConcurrency && this.heap.length === 0) {
      this.running++;
      return true;
    }
    return false;
  }

  /** Waits for a slot; rejects with `CANCELLED` when `signal` aborts first. */
  acquire(priority: number, signal?: AbortSignal): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(cancelled(this.name));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { priority, seq: this.seq++, resolve, reject, settled: false };
      const onAbort = (): void => {
        if (waiter.settled) return;
        waiter.settled = true;
        this.remove(waiter);
        reject(cancelled(this.name));
      };
      if (signal) {
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.resolve = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
      }
      this.push(waiter);
    });
  }

  /** Gives a slot back and hands it to the next waiter, if any. */
  release(): void {
    this.running--;
    while (this.running < this.maxConcurrency && this.heap.length > 0) {
      const next = this.pop();
      if (!next || next.settled) continue;
      next.settled = true;
      this.running++;
      next.resolve();
    }
  }

  /** Rejects every waiter with `CANCELLED` (running calls are cancelled by their own signals). */
  cancelWaiting(): void {
    const waiters = this.heap.splice(0);
    for (const waiter of waiters) {
      if (waiter.settled) continue;
      waiter.settled = true;
      waiter.reject(cancelled(this.name));
    }
  }

  private before(a: Waiter, b: Waiter): boolean {
    return a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);
  }

  private push(waiter: Waiter): void {
    const heap = this.heap;
    heap.push(waiter);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[i] as Waiter, heap[parent] as Waiter)) break;
      [heap[i], heap[parent]] = [heap[parent] as Waiter, heap[i] as Waiter];
      i = parent;
    }
  }

  private pop(): Waiter | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < heap.length && this.before(heap[left] as Waiter, heap[best] as Waiter)) best = left;
      if (right < heap.length && this.before(heap[right] as Waiter, heap[best] as Waiter)) best = right;
      if (best === i) return;
      [heap[i], heap[best]] = [heap[best] as Waiter, heap[i] as Waiter];
      i = best;
    }
  }

  private remove(waiter: Waiter): void {
    const index = this.heap.indexOf(waiter);
    if (index < 0) return;
    const last = this.heap.pop() as Waiter;
    if (index < this.heap.length) {
      this.heap[index] = last;
      this.siftDown(index);
      // the moved element may also need to rise
      let i = index;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.before(this.heap[i] as Waiter, this.heap[parent] as Waiter)) break;
        [this.heap[i], this.heap[parent]] = [this.heap[parent] as Waiter, this.heap[i] as Waiter];
        i = parent;
      }
    }
  }
}

function cancelled(queue: string): ToolError {
  return new ToolError('CANCELLED', `the call was cancelled while waiting in queue "${queue}"`);
}

/** Calls in flight, and running/waiting per named queue. */
export interface OrchestratorStats {
  readonly inflight: number;
  readonly queues: Record<string, { running: number; waiting: number; maxConcurrency: number }>;
}

/** Running and waiting calls of each queue. */
export function queueStats(queues: ReadonlyMap<string, NamedQueue>): OrchestratorStats['queues'] {
  // fromEntries defines each name: a queue named `__proto__` is a field, not the object's prototype
  return Object.fromEntries(
    Array.from(queues, ([name, queue]) => [
      name,
      { running: queue.running, waiting: queue.waiting, maxConcurrency: queue.maxConcurrency },
    ]),
  );
}
