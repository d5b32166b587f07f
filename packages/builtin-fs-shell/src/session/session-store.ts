import { ReadRecords } from './read-records.js';
import type { TodoItem } from './todos.js';

/** Everything the tools remember about one session. */
export interface SessionState {
  readonly reads: ReadRecords;
  todos: readonly TodoItem[];
}

/** Per-session state keyed by `ctx.session.id`, so one provider serves many sessions. */
export class SessionStore {
  private readonly sessions = new Map<string, SessionState>();

  get(sessionId: string): SessionState {
    let state = this.sessions.get(sessionId);
    if (!state) {
      state = { reads: new ReadRecords(), todos: [] };
      this.sessions.set(sessionId, state);
    }
    return state;
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
}
