import { createHash } from 'node:crypto';
import type { McpPendingLogin } from '@toolplane/mcp-provider';
import type { Cipher } from '../secrets/cipher.js';
import type { SqlClient } from '../storage/database.js';
import type { TokenOwner } from './user-token-store.js';

/** A login waiting for the browser to come back to the callback. */
export interface PendingLogin {
  readonly owner: TokenOwner;
  readonly server: string;
  /** What `completeMcpLogin` needs: the PKCE verifier, the client, the redirect URI... */
  readonly pending: McpPendingLogin;
}

interface PendingRow {
  tenant_id: string;
  user_id: string;
  server: string;
  pending_sealed: string;
  expires_at: Date | string;
}

const hashOf = (state: string): string => createHash('sha256').update(state).digest('hex');

/**
 * Logins started by `POST .../oauth/start`, stored in the database by the sha-256 of their
 * `state`, so the callback may reach any instance. Each is taken at most once (the row is
 * deleted as it is read) and expires after `ttlMs`, so a reused, forged or late `state` finds
 * nothing; a user's new login to the same server replaces the one before. The pending login
 * (it holds the code verifier and maybe a client secret) is stored sealed, as tokens are.
 */
export class PendingLogins {
  constructor(
    private readonly db: SqlClient,
    private readonly cipher: Cipher,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores a started login, replacing the user's earlier one to the same server. */
  async add(login: PendingLogin): Promise<void> {
    const now = this.now();
    await this.db.query('DELETE FROM mcp_pending_logins WHERE expires_at <= $1', [new Date(now)]);
    await this.db.query(
      `INSERT INTO mcp_pending_logins (state_hash, tenant_id, user_id, server, pending_sealed, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, user_id, server) DO UPDATE SET state_hash = EXCLUDED.state_hash,
         pending_sealed = EXCLUDED.pending_sealed, expires_at = EXCLUDED.expires_at`,
      [
        hashOf(login.pending.state),
        login.owner.tenantId,
        login.owner.userId,
        login.server,
        this.cipher.seal(JSON.stringify(login.pending)),
        new Date(now + this.ttlMs),
      ],
    );
  }

  /** The login of `state`, removed: a second take of the same state finds nothing. */
  async take(state: string): Promise<PendingLogin | undefined> {
    const [row] = await this.db.query<PendingRow>(
      'DELETE FROM mcp_pending_logins WHERE state_hash = $1 RETURNING *',
      [hashOf(state)],
    );
    if (!row || new Date(row.expires_at).getTime() <= this.now()) return undefined;
    const pending = JSON.parse(this.cipher.open(row.pending_sealed)) as McpPendingLogin;
    // the hash matched; the sealed state must too (a row is never trusted on its key alone)
    if (pending.state !== state) return undefined;
    return { owner: { tenantId: row.tenant_id, userId: row.user_id }, server: row.server, pending };
  }
}
