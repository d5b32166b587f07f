import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { COUNT_WORKER_SOURCE, STOP } from './count-worker-source.js';
import { SEGMENT_BYTES } from './count-serially.js';
import type { CountJob, CountReach, CountThreadsOptions, WorkerMessage } from './count-job.js';
import { type WasmModule, newlineModule } from './newline-wasm.js';

export type { CountJob, CountReach, CountThreadsOptions } from './count-job.js';

interface Running {
  readonly id: number;
  readonly job: CountJob;
  readonly control: Int32Array;
  readonly pending: Map<number, number[]>;
  nextBlock: number;
  offset: number;
  newlines: number;
  failure?: Error;
  /** Threads that have not yet said they are done with this job. */
  readonly working: Set<Worker>;
  settle(): void;
}

/**
 * Counts "\n" bytes of a file range on worker threads, so a read deep into a large file with no
 * line index yet uses every core: each thread claims blocks in turn, reads them in small chunks
 * with a synchronous `pread` (no thread-pool round trip) into a buffer that stays in its cache,
 * counts them with the WebAssembly SIMD kernel, and reports per-segment counts; the caller's
 * thread puts them in file order. Memory stays one small buffer per thread. One job runs at a
 * time ({@link tryCount} says when busy); threads start on first use and exit when idle.
 */
export class CountThreads {
  private readonly threads: number;
  private readonly blockBytes: number;
  private readonly segmentBytes: number;
  private readonly chunkBytes: number;
  private readonly idleMs: number;
  private workers: Worker[] = [];
  /** Threads that have started and can take a job at once. */
  private readonly started = new WeakSet<Worker>();
  private running: Running | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private jobs = 0;
  private unavailable = false;

  constructor(
    private readonly module: WasmModule,
    options: CountThreadsOptions = {},
  ) {
    this.threads = Math.max(1, options.threads ?? Math.min(4, availableParallelism()));
    this.segmentBytes = options.segmentBytes ?? SEGMENT_BYTES;
    this.blockBytes = options.blockBytes ?? 4 * this.segmentBytes;
    this.chunkBytes = options.chunkBytes ?? 256 * 1024;
    this.idleMs = options.idleMs ?? 30_000;
    if (this.blockBytes % this.segmentBytes !== 0)
      throw new Error(`CountThreads: blockBytes ${this.blockBytes} is not a multiple of segmentBytes`);
  }

  /** Threads alive now (0 before the first job and after an idle period). */
  get liveThreads(): number {
    return this.workers.length;
  }

  /**
   * Whether every thread is up, so a job starts counting at once (a thread takes tens of
   * milliseconds to start). A caller that can count by itself meanwhile calls {@link warm}
   * and hands over once this is true.
   */
  get ready(): boolean {
    return (
      !this.unavailable &&
      this.workers.length === this.threads &&
      this.workers.every((worker) => this.started.has(worker))
    );
  }

  /** Starts the threads (if they are not running) without giving them a job; never throws. */
  warm(): void {
    if (this.unavailable) return;
    clearTimeout(this.idleTimer);
    try {
      this.startThreads();
    } catch {
      this.markUnavailable();
      return;
    }
    if (!this.running) this.scheduleIdle();
  }

  /** Whether a job is running. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /**
   * Runs a count, or returns undefined when another one is running (the caller counts itself).
   * Rejects with the signal's reason on abort and with an Error when a thread fails (a read
   * error, or a file that shrank); every thread has stopped using `fd` before it settles.
   */
  tryCount(job: CountJob): Promise<CountReach> | undefined {
    if (this.running || this.unavailable) return undefined;
    if (job.signal?.aborted) return Promise.reject(job.signal.reason);
    clearTimeout(this.idleTimer);
    try {
      this.startThreads();
    } catch {
      this.markUnavailable();
      return undefined;
    }
    const control = new Int32Array(new SharedArrayBuffer(8));
    const blocks = Math.ceil(Math.max(0, job.end - job.start) / this.blockBytes);
    return new Promise<CountReach>((resolve, reject) => {
      const running: Running = {
        id: ++this.jobs,
        job,
        control,
        pending: new Map(),
        nextBlock: 0,
        offset: job.start,
        newlines: job.newlines,
        working: new Set(this.workers),
        settle: () => {
          job.signal?.removeEventListener('abort', stop);
          this.running = undefined;
          this.scheduleIdle();
          if (job.signal?.aborted) reject(job.signal.reason);
          else if (running.failure) reject(running.failure);
          else resolve({ offset: running.offset, newlines: running.newlines });
        },
      };
      const stop = (): void => {
        Atomics.store(control, STOP, 1);
      };
      job.signal?.addEventListener('abort', stop, { once: true });
      this.running = running;
      const message = {
        id: running.id,
        fd: job.fd,
        start: job.start,
        end: job.end,
        blocks,
        blockBytes: this.blockBytes,
        segmentBytes: this.segmentBytes,
        control: control.buffer,
      };
      for (const worker of this.workers) worker.postMessage(message);
    });
  }

  /** Stops every thread (a running job fails once they are gone). */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const workers = this.workers;
    this.workers = [];
    const running = this.running;
    if (running) {
      running.failure ??= new Error('the counting threads were closed');
      Atomics.store(running.control, STOP, 1);
    }
    await Promise.all(workers.map((worker) => worker.terminate()));
    // Settled only now, so no thread still reads the caller's descriptor.
    if (running && this.running === running) {
      running.working.clear();
      running.settle();
    }
  }

  /** Threads cannot start here (a runtime or sandbox that forbids them): callers count themselves. */
  private markUnavailable(): void {
    this.unavailable = true;
    for (const worker of this.workers.splice(0)) void worker.terminate();
  }

  private startThreads(): void {
    while (this.workers.length < this.threads) {
      const worker = new Worker(COUNT_WORKER_SOURCE, {
        eval: true,
        workerData: { module: this.module, chunkBytes: this.chunkBytes },
      });
      worker.unref();
      worker.on('message', (message: WorkerMessage) => this.onMessage(worker, message));
      worker.on('error', (error) => this.onCrash(worker, error));
      worker.on('exit', () => this.onCrash(worker, new Error('a counting thread exited')));
      this.workers.push(worker);
    }
  }

  private onMessage(worker: Worker, message: WorkerMessage): void {
    if (message.type === 'ready') {
      this.started.add(worker);
      // Idle time counts from when the threads are up: a slow start is not idleness.
      if (!this.running) this.scheduleIdle();
      return;
    }
    const running = this.running;
    if (!running || message.id !== running.id) return;
    if (message.type === 'block') {
      running.pending.set(message.block, message.counts);
      this.advance(running);
    } else if (message.type === 'failed') {
      running.failure ??= new Error(`counting newlines failed: ${message.message}`);
      Atomics.store(running.control, STOP, 1);
    } else {
      running.working.delete(worker);
      if (running.working.size === 0) running.settle();
    }
  }

  /** Folds the blocks that are now contiguous into the running total, in file order. */
  private advance(running: Running): void {
    const { job } = running;
    for (let counts = running.pending.get(running.nextBlock); counts; ) {
      running.pending.delete(running.nextBlock);
      const blockStart = job.start + running.nextBlock * this.blockBytes;
      for (let segment = 0; segment < counts.length; segment++) {
        // Stopped (found, failed, aborted: perhaps by the checkpoint listener just called).
        if (Atomics.load(running.control, STOP) !== 0) return;
        const count = counts[segment] as number;
        if (job.until !== undefined && running.newlines + count >= job.until) {
          Atomics.store(running.control, STOP, 1);
          return;
        }
        running.newlines += count;
        running.offset = Math.min(job.end, blockStart + (segment + 1) * this.segmentBytes);
        job.onCheckpoint?.(running.offset, running.newlines);
      }
      running.nextBlock++;
      counts = running.pending.get(running.nextBlock);
    }
  }

  private onCrash(worker: Worker, error: Error): void {
    const at = this.workers.indexOf(worker);
    if (at === -1) return;
    this.workers.splice(at, 1);
    const running = this.running;
    // A thread that crashed will never say 'done': stop the job and stop waiting for it.
    if (!running?.working.delete(worker)) return;
    running.failure ??= new Error(`a counting thread failed: ${error.message}`);
    Atomics.store(running.control, STOP, 1);
    if (running.working.size === 0) running.settle();
  }

  private scheduleIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      // A thread still starting reschedules this when it is up.
      if (this.running || this.workers.some((worker) => !this.started.has(worker))) return;
      const workers = this.workers;
      this.workers = [];
      for (const worker of workers) void worker.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }
}

let shared: CountThreads | null | undefined;

/**
 * The process's counting threads (one set however many providers), or null when this runtime
 * has no WebAssembly SIMD (then scans stay on the calling thread).
 */
export function sharedCountThreads(): CountThreads | null {
  if (shared !== undefined) return shared;
  const module = newlineModule();
  shared = module ? new CountThreads(module) : null;
  return shared;
}
