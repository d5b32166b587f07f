import type { Executor, ToolContext } from '@toolplane/core';
import type { Agent } from 'undici';
import type { CountThreads } from '../files/count-threads.js';
import type { IndexAhead } from '../files/index-ahead.js';
import type { LineIndexCache } from '../files/line-index.js';
import type { PathLocks } from '../files/path-locks.js';
import type { ScannerPool } from '../files/newline-scanner.js';
import type { SessionSandboxes } from '../session/session-sandboxes.js';
import type { SessionStore } from '../session/session-store.js';
import type { Workspace } from '../workspace/workspace.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { GrepEngineOptions } from '../grep/options.js';
import type { WebFetchOptions } from '../web/options.js';

/** Limits the tools apply; every one has a default in the provider. */
export interface ToolLimits {
  /** Lines `read` returns when no limit is given. */
  readonly readDefaultLines: number;
  /** Text bytes `read` returns at most. */
  readonly readMaxBytes: number;
  readonly readMaxLineLength: number;
  /** Largest image `read` returns as image content. */
  readonly readMaxImageBytes: number;
  /** Largest file `edit` and `notebook_edit` load. */
  readonly editMaxBytes: number;
  readonly listDefaultLimit: number;
  readonly globDefaultLimit: number;
  readonly grepDefaultLimit: number;
  readonly bashDefaultTimeoutMs: number;
  readonly bashMaxTimeoutMs: number;
  /** Output kept per stream of a command (head and tail). */
  readonly bashMaxOutputBytes: number;
  /** Output kept per stream of a background task. */
  readonly taskMaxOutputBytes: number;
  /** Background tasks one session may have running at once. */
  readonly tasksMaxRunningPerSession: number;
  /** Background tasks all sessions together may have running at once. */
  readonly tasksMaxRunning: number;
  /** Ended background tasks kept for `task_output` per session (the oldest dropped first). */
  readonly tasksMaxFinishedPerSession: number;
  /** Ended background tasks kept across sessions (the oldest dropped first). */
  readonly tasksMaxFinished: number;
  /** Sessions whose state (read records, todo list) is kept; the least recently used dropped. */
  readonly sessionsMax: number;
  /** Files whose read a session remembers for read-before-write; the least recently read dropped. */
  readonly readRecordsPerSession: number;
  /**
   * Time an executor gets past a command's timeout, an abort or a stop (and again after the kill
   * that follows) to report the end; past it the call fails `EXECUTION_FAILED`.
   */
  readonly executorGraceMs: number;
}

/** What the tools share: the confinement, session state, the executor choice. */
export interface ToolDeps {
  readonly workspace: Workspace;
  readonly sessions: SessionStore;
  readonly lineIndex: LineIndexCache;
  /** Serializes mutations of the same file (write, edit, notebook_edit). */
  readonly pathLocks: PathLocks;
  /** Chunk buffers with newline counting, lent to scans. */
  readonly scanners: ScannerPool;
  /** Threads that count newlines far into large files (null: scans stay on this thread). */
  readonly countThreads: CountThreads | null;
  /** Background line-index builds of large files. */
  readonly indexAhead: IndexAhead;
  readonly limits: ToolLimits;
  readonly tasks: TaskManager;
  /** The executors each session's commands ran on, released when the session is forgotten. */
  readonly sandboxes: SessionSandboxes;
  readonly grep: GrepEngineOptions;
  readonly webFetch: WebFetchOptions;
  /** True once the provider's `close()` has begun: nothing may be started after it. */
  isClosed(): boolean;
  /** The executor of a call: `ctx.services.executor`, else the provider's. */
  executorFor(ctx: ToolContext): Executor;
  /** The HTTP agent of `web_fetch` (address guard included), created (and undici loaded) on first use. */
  webAgent(): Promise<Agent>;
  /** The environment of a command (allow-listed host variables plus configured extras). */
  commandEnv(): Record<string, string>;
}
