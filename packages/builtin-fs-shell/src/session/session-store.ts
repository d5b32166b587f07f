import { setMostRecent } from './most-recent.js';
import { ReadRecords } from './read-records.js';
import type { TodoItem } from './todos.js';

/** Everything the tools remember about one session. */
export interface SessionState {
  readonly reads: ReadRecords;
  todos: readonly TodoItem[];
}

/**
 * Per-session state keyed by `ctx.session.id`, so one provider serves many sessions. At most
 * `maxSessions` are kept: a host serving sessions for months does not keep every one it saw;
 * the least recently used is dropped (its read records and todo list with it).
 */
export class SessionStore {
  private readonly sessions = new Map<string, SessionState>();

  constructor(
    private readonly maxSessions = 1024,
    private readonly readsPerSession = 4096,
  ) {}

  /** Sessions kept now. */
  get size(): number {
    return this.sessions.size;
  }

  get(sessionId: string): SessionState {
    const state = this.sessions.get(sessionId) ?? { reads: new ReadRecords(this.readsPerSession), todos: [] };
    setMostRecent(this.sessions, sessionId, state, this.maxSessions);
    return state;
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
}
