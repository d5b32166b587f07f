import type { McpAuthRedirect } from '@toolplane/mcp-provider';
import type { McpServerRecord } from '../mcp-servers/mcp-server-store.js';
import type { TokenOwner } from './user-token-store.js';

/** A login waiting for the browser to come back to the callback. */
export interface PendingLogin {
  readonly owner: TokenOwner;
  readonly server: string;
  /** The server as it was registered when the login started. */
  readonly record: McpServerRecord;
  /** Hands the redirect's query to the waiting login. */
  readonly deliver: (redirect: McpAuthRedirect) => void;
  /** Ends the waiting login (expired, replaced, server closing). */
  readonly abandon: (why: string) => void;
  /** Settles when the login stored its tokens (or failed). */
  readonly finished: Promise<void>;
}

/**
 * Logins started by `POST .../oauth/start`, by their `state`: each is taken at most once and
 * expires after `ttlMs`, so a reused, forged or late `state` finds nothing. A user's new login
 * to the same server replaces the one before. Kept in the memory of the instance that started
 * the login (the browser must come back to it, as to the approvals inbox).
 */
export class PendingLogins {
  private readonly byState = new Map<string, { login: PendingLogin; timer: NodeJS.Timeout }>();

  constructor(private readonly ttlMs: number) {}

  add(state: string, login: PendingLogin): void {
    for (const [other, entry] of this.byState)
      if (
        entry.login.server === login.server &&
        entry.login.owner.tenantId === login.owner.tenantId &&
        entry.login.owner.userId === login.owner.userId
      )
        this.drop(other, 'a newer login to this server was started');
    const timer = setTimeout(
      () => this.drop(state, 'the login expired before the browser came back'),
      this.ttlMs,
    );
    timer.unref();
    this.byState.set(state, { login, timer });
  }

  /** The login of `state`, removed: a second take of the same state finds nothing. */
  take(state: string): PendingLogin | undefined {
    const entry = this.byState.get(state);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.byState.delete(state);
    return entry.login;
  }

  private drop(state: string, why: string): void {
    const entry = this.byState.get(state);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.byState.delete(state);
    entry.login.abandon(why);
  }

  /** Abandons every waiting login. */
  close(): void {
    for (const state of [...this.byState.keys()]) this.drop(state, 'the server is stopping');
  }
}
