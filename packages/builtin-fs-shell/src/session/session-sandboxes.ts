import type { Executor } from '@toolplane/core';
import { setMostRecent } from './most-recent.js';

/**
 * Which executors ran commands for which session, so the session's sandbox can be released
 * (`executor.release(sessionId)`) when the session is forgotten or the provider closes. Only
 * executors with a `release` are kept. At most `maxSessions` sessions are remembered: the least
 * recently used one is forgotten without a release (the executor's idle reaping and its own
 * `close()` remove that sandbox).
 */
export class SessionSandboxes {
  private readonly sessions = new Map<string, Set<Executor>>();

  constructor(private readonly maxSessions = 1024) {}

  /** Sessions remembered now. */
  get size(): number {
    return this.sessions.size;
  }

  /** Notes that `executor` runs (or ran) a command of `sessionId`. */
  use(sessionId: string, executor: Executor): void {
    if (typeof executor.release !== 'function') return;
    const executors = this.sessions.get(sessionId) ?? new Set<Executor>();
    executors.add(executor);
    setMostRecent(this.sessions, sessionId, executors, this.maxSessions);
  }

  /**
   * Releases the session's sandbox in every executor that ran its commands, and forgets the
   * session. Rejects with the first failure once every release has been tried.
   */
  async release(sessionId: string): Promise<void> {
    const executors = this.sessions.get(sessionId);
    if (!executors) return;
    this.sessions.delete(sessionId);
    const outcomes = await Promise.allSettled(
      [...executors].map((executor) => executor.release?.(sessionId)),
    );
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Releases the sandboxes of every remembered session; failures are ignored (closing). */
  async releaseAll(): Promise<void> {
    const ids = [...this.sessions.keys()];
    await Promise.all(ids.map((sessionId) => this.release(sessionId).catch(() => undefined)));
  }
}
