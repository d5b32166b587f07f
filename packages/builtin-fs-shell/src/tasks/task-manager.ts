import type { ExecProcess, ExecRequest, ExecResult, Executor } from '@toolplane/core';
import { createId } from '@toolplane/core';
import { endWithin, settlesWithin } from '../executor/end-within.js';
import { HeadTailBuffer } from '../executor/head-tail-buffer.js';

/** Where a background task is. */
export type TaskStatus = 'running' | 'completed' | 'failed' | 'stopped' | 'timed_out';

/** A command started with `run_in_background`. */
export interface BackgroundTask {
  readonly id: string;
  readonly sessionId: string;
  readonly command: string;
  readonly cwd: string;
  readonly executorKind: string;
  readonly startedAt: number;
  readonly pid: number | undefined;
  status: TaskStatus;
  endedAt?: number;
  result?: ExecResult;
  /** stdout and stderr as they interleaved, head and tail kept. */
  readonly output: HeadTailBuffer;
  readonly process: ExecProcess;
  readonly finished: Promise<void>;
}

function statusOf(result: ExecResult, stopped: boolean): TaskStatus {
  if (result.timedOut) return 'timed_out';
  if (stopped || result.cancelled) return 'stopped';
  return result.exitCode === 0 ? 'completed' : 'failed';
}

/**
 * Background tasks of all sessions, each visible only to the session that started it. Tasks
 * outlive the call that started them and end on `task_stop`, their timeout, or `close()`.
 */
export class TaskManager {
  private readonly sessions = new Map<string, Map<string, BackgroundTask>>();
  private readonly stopping = new Set<string>();
  /** Ended tasks still kept, in the order they ended (oldest first), across sessions. */
  private readonly finishedOrder = new Set<BackgroundTask>();

  /**
   * @param graceMs Time an executor gets past a task's timeout or a stop (and again after the
   *   kill that follows) to report its end; past it the task is given up as failed.
   * @param maxFinishedPerSession Ended tasks kept for `task_output` per session (oldest dropped).
   * @param maxFinished Ended tasks kept across sessions (oldest dropped), so a host that serves
   *   many sessions does not keep every session's outputs for its whole life.
   */
  constructor(
    private readonly maxOutputBytes: number,
    private readonly graceMs: number,
    private readonly maxFinishedPerSession = 50,
    private readonly maxFinished = 128,
  ) {}

  /** Tasks running now, in one session or (no id) in all. */
  runningCount(sessionId?: string): number {
    const sessions = sessionId === undefined ? [...this.sessions.values()] : [this.sessions.get(sessionId)];
    let count = 0;
    for (const tasks of sessions)
      for (const task of tasks?.values() ?? []) if (task.status === 'running') count++;
    return count;
  }

  start(
    sessionId: string,
    executor: Executor,
    request: Omit<ExecRequest, 'onOutput' | 'signal'>,
  ): BackgroundTask {
    const output = new HeadTailBuffer(this.maxOutputBytes);
    const process = executor.start({
      ...request,
      onOutput: (chunk) => output.push(Buffer.from(chunk.data, 'utf8')),
    });
    const id = createId('task');
    const task: BackgroundTask = {
      id,
      sessionId,
      command: request.command,
      cwd: request.cwd,
      executorKind: executor.kind,
      startedAt: Date.now(),
      pid: process.pid,
      status: 'running',
      output,
      process,
      // The executor enforces the timeout; the watch only ends a task whose executor never says.
      finished: (request.timeoutMs === undefined
        ? process.done
        : endWithin(process, { timeoutMs: request.timeoutMs, graceMs: this.graceMs })
      ).then(
        (result) => {
          if (result) this.ended(task, result);
          else this.giveUp(task, 'its timeout');
        },
        (error: unknown) => {
          task.status = 'failed';
          task.endedAt = Date.now();
          output.push(
            Buffer.from(`\n[could not start: ${error instanceof Error ? error.message : String(error)}]\n`),
          );
          this.retire(task);
        },
      ),
    };
    let tasks = this.sessions.get(sessionId);
    if (!tasks) {
      tasks = new Map();
      this.sessions.set(sessionId, tasks);
    }
    tasks.set(id, task);
    return task;
  }

  private ended(task: BackgroundTask, result: ExecResult): void {
    // The executor's notes end its result's stderr, not the streamed chunks: add them once.
    if (task.result === undefined && result.notes !== undefined && result.notes.length > 0) {
      task.output.push(Buffer.from(`\n${result.notes.join('\n')}\n`, 'utf8'));
    }
    task.result = result;
    task.status = statusOf(result, this.stopping.has(task.id));
    task.endedAt = Date.now();
    this.retire(task);
  }

  /**
   * Ends a task whose executor did not report its end past a deadline, nor after a kill: it
   * stops counting as running (it may still run where the executor put it, which the output
   * says), and an end reported later is still recorded.
   */
  private giveUp(task: BackgroundTask, deadline: string): void {
    if (task.status !== 'running') return;
    task.status = 'failed';
    task.endedAt = Date.now();
    task.output.push(
      Buffer.from(
        `\n[the ${task.executorKind} executor did not report the end of this task within ${this.graceMs} ms of ${deadline}, nor after a kill; it may still be running there]\n`,
      ),
    );
    this.retire(task);
    task.process.done.then(
      (result) => this.ended(task, result),
      () => undefined,
    );
  }

  /**
   * Files an ended task among the kept ones, then drops the oldest ended tasks past
   * `maxFinishedPerSession` in its session and past `maxFinished` in all.
   */
  private retire(task: BackgroundTask): void {
    const tasks = this.sessions.get(task.sessionId);
    if (tasks?.get(task.id) !== task || this.finishedOrder.has(task)) return;
    this.finishedOrder.add(task);
    let inSession = 0;
    for (const each of tasks.values()) if (each.status !== 'running') inSession++;
    // Bounded: each pass drops one kept task of the session.
    for (const oldest of this.finishedOrder) {
      if (inSession <= this.maxFinishedPerSession) break;
      if (oldest.sessionId !== task.sessionId) continue;
      this.drop(oldest);
      inSession--;
    }
    for (const oldest of this.finishedOrder) {
      if (this.finishedOrder.size <= this.maxFinished) break;
      this.drop(oldest);
    }
  }

  /** Forgets an ended task (and its session's entry once it holds no task). */
  private drop(task: BackgroundTask): void {
    this.finishedOrder.delete(task);
    this.stopping.delete(task.id);
    const tasks = this.sessions.get(task.sessionId);
    if (tasks?.get(task.id) !== task) return;
    tasks.delete(task.id);
    if (tasks.size === 0) this.sessions.delete(task.sessionId);
  }

  get(sessionId: string, id: string): BackgroundTask | undefined {
    return this.sessions.get(sessionId)?.get(id);
  }

  list(sessionId: string): BackgroundTask[] {
    return [...(this.sessions.get(sessionId)?.values() ?? [])];
  }

  /**
   * Kills the task's process tree; resolves when it is gone, or when its executor has not said
   * so within twice the grace period (the task is then given up as failed). False then.
   */
  async stop(task: BackgroundTask): Promise<boolean> {
    if (task.status !== 'running') return true;
    this.stopping.add(task.id);
    const killed = Promise.resolve()
      .then(() => task.process.kill())
      .then(() => task.finished);
    if (await settlesWithin(killed, 2 * this.graceMs)) return true;
    this.giveUp(task, 'task_stop');
    return false;
  }

  /** Waits until the task ends, the timeout passes or the signal aborts; true when it ended. */
  async wait(task: BackgroundTask, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (task.status !== 'running') return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const ended = await Promise.race([
      task.finished.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        onAbort = () => resolve(false);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    if (timer) clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    return ended;
  }

  /** Stops and forgets the tasks of one session. */
  async forgetSession(sessionId: string): Promise<void> {
    const tasks = this.list(sessionId);
    await Promise.all(tasks.map((task) => this.stop(task)));
    for (const task of this.list(sessionId)) {
      this.finishedOrder.delete(task);
      this.stopping.delete(task.id);
    }
    this.sessions.delete(sessionId);
  }

  /** Stops every running task. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((sessionId) => this.forgetSession(sessionId)));
  }
}
