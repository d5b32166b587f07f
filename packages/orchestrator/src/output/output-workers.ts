import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ToolError } from '@toolplane/core';
import { WORKER_SOURCE } from './output-worker-source.js';

/** A grep of a stored output: the model's regular expression, which may backtrack for hours. */
export interface GrepJob {
  readonly kind: 'grep';
  readonly file: string;
  readonly pattern: string;
  readonly flags: string;
  readonly context: number;
  readonly maxMatches: number;
  readonly maxLine: number;
  readonly lines: number;
}

/** A JSONPath query of a stored output: parsing up to `maxStoredBytes` of JSON takes seconds. */
export interface JsonPathJob {
  readonly kind: 'jsonpath';
  readonly file: string;
  readonly path: string;
  /** The answer is cut at this many characters (the caller cuts it to bytes). */
  readonly maxChars: number;
}

/** What a worker answers: the text, or why the job cannot be done (said to the model). */
export type WorkerAnswer =
  | { readonly text: string; readonly cut?: boolean }
  | { readonly problem: 'not-json' }
  | { readonly problem: 'path'; readonly message: string }
  /** The JSON nests deeper than a query with `..` can follow (jsonpath-plus recurses). */
  | { readonly problem: 'deep' }
  /** The answer is longer than a string can be (a `$..*` over hundreds of megabytes). */
  | { readonly problem: 'large' };

/** Idle workers kept warm for the next job. */
const KEEP_IDLE = 2;
/**
 * Jobs that run at once; the others wait their turn (until their deadline or cancel). Each
 * JSONPath job holds a parsed copy of an output of up to `maxStoredBytes` (256 MiB by default):
 * unbounded, a burst of them would take the process's memory.
 */
const MAX_RUNNING = 4;

/**
 * The worker threads that run `tool_output`'s grep and JSONPath jobs, off the orchestrator's
 * thread: a model's regular expression can backtrack for hours, and parsing a stored JSON
 * output of hundreds of megabytes holds a thread for seconds; neither can be interrupted on the
 * thread that runs it. A job's worker is terminated when its signal aborts (the call's deadline,
 * a cancel, close()), so the call ends and every other call keeps running meanwhile. Starting a
 * worker costs tens of milliseconds, so up to two idle ones are kept (unreferenced: they never
 * keep the process alive) and one is started in place of a terminated one.
 */
export class OutputWorkers {
  private readonly idle: Worker[] = [];
  private readonly busy = new Set<Worker>();
  /** Jobs holding a turn (running, or about to start); at most `MAX_RUNNING`. */
  private running = 0;
  private readonly waiting: Array<{ go(): void; fail(error: unknown): void }> = [];
  private closed = false;

  async run(job: GrepJob | JsonPathJob, signal: AbortSignal): Promise<WorkerAnswer> {
    if (signal.aborted) throw stopped(signal);
    if (this.closed) throw closedError();
    if (this.running < MAX_RUNNING) this.running++;
    else await this.turn(signal);
    try {
      if (signal.aborted) throw stopped(signal);
      if (this.closed) throw closedError();
    } catch (error) {
      this.pass();
      throw error;
    }
    return this.runOn(this.idle.pop() ?? this.start(), job, signal);
  }

  /** Waits for a running job to hand over its turn; leaves the line when `signal` aborts. */
  private turn(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const entry = {
        go: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        fail: (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(entry);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(stopped(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** Hands the turn of a job that ended to the next one waiting. */
  private pass(): void {
    const next = this.waiting.shift();
    if (next) next.go();
    else this.running--;
  }

  private runOn(worker: Worker, job: GrepJob | JsonPathJob, signal: AbortSignal): Promise<WorkerAnswer> {
    worker.ref();
    this.busy.add(worker);
    return new Promise((resolve, reject) => {
      const done = (): void => {
        signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        this.busy.delete(worker);
        this.pass();
      };
      const discard = (): void => {
        done();
        void worker.terminate();
        this.warm();
      };
      const onAbort = (): void => {
        discard();
        reject(stopped(signal));
      };
      const onMessage = (answer: WorkerAnswer | { readonly failed: string }): void => {
        done();
        this.release(worker);
        if ('failed' in answer) reject(new Error(answer.failed));
        else resolve(answer);
      };
      const onError = (error: unknown): void => {
        discard();
        reject(error);
      };
      const onExit = (): void => {
        discard();
        reject(new ToolError('INTERNAL', 'the tool_output worker ended without an answer'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage(job);
    });
  }

  /** Terminates every worker; jobs still running end `CANCELLED` through their signals. */
  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.waiting.splice(0)) entry.fail(closedError());
    const all = [...this.idle, ...this.busy];
    this.idle.length = 0;
    await Promise.all(all.map((worker) => worker.terminate()));
  }

  private release(worker: Worker): void {
    if (this.closed || this.idle.length >= KEEP_IDLE) {
      void worker.terminate();
      return;
    }
    worker.unref();
    this.idle.push(worker);
  }

  /** Starts a worker in place of a terminated one, so the next job does not wait for one. */
  private warm(): void {
    if (this.closed || this.idle.length > 0) return;
    const worker = this.start();
    worker.unref();
    this.idle.push(worker);
  }

  /**
   * A new worker. An idle one that ends on its own is dropped (the next job starts another);
   * a job listens for the errors of its worker, so one while idle is dropped the same way.
   */
  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { jsonpathModule: JSONPATH_MODULE } });
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      const at = this.idle.indexOf(worker);
      if (at !== -1) this.idle.splice(at, 1);
    });
    return worker;
  }
}

function closedError(): ToolError {
  return new ToolError('CANCELLED', 'the orchestrator is closed');
}

function stopped(signal: AbortSignal): unknown {
  return signal.reason ?? new ToolError('CANCELLED', 'the tool_output job was cancelled');
}

/** jsonpath-plus for the worker, resolved here (the worker's code is evaluated, with no path of its own). */
const JSONPATH_MODULE = createRequire(import.meta.url).resolve('jsonpath-plus');
