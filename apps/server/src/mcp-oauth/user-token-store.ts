import type { McpAuthRecord, McpTokenStore } from '@toolplane/mcp-provider';
import type { Cipher } from '../secrets/cipher.js';
import type { SqlClient } from '../storage/database.js';

/** Whose tokens a store holds: one user of one tenant. */
export interface TokenOwner {
  readonly tenantId: string;
  readonly userId: string;
}

/**
 * The OAuth records of one user, one row per server, sealed with the server's cipher. Every
 * query names the tenant and the user, so a store can only ever read its own user's records.
 * Records are never logged.
 */
export function createUserTokenStore(db: SqlClient, cipher: Cipher, owner: TokenOwner): McpTokenStore {
  return {
    async read(server) {
      const [row] = await db.query<{ record_sealed: string }>(
        'SELECT record_sealed FROM mcp_user_tokens WHERE tenant_id = $1 AND user_id = $2 AND server = $3',
        [owner.tenantId, owner.userId, server],
      );
      return row ? (JSON.parse(cipher.open(row.record_sealed)) as McpAuthRecord) : undefined;
    },
    async write(server, record) {
      await db.query(
        `INSERT INTO mcp_user_tokens (tenant_id, user_id, server, record_sealed) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, user_id, server) DO UPDATE SET record_sealed = EXCLUDED.record_sealed, updated_at = now()`,
        [owner.tenantId, owner.userId, server, cipher.seal(JSON.stringify(record))],
      );
    },
    async remove(server) {
      await db.query('DELETE FROM mcp_user_tokens WHERE tenant_id = $1 AND user_id = $2 AND server = $3', [
        owner.tenantId,
        owner.userId,
        server,
      ]);
    },
  };
}

/** Drops every user's link to a server (the server was removed from the tenant). */
export async function removeServerLinks(db: SqlClient, tenantId: string, server: string): Promise<void> {
  await db.query('DELETE FROM mcp_user_tokens WHERE tenant_id = $1 AND server = $2', [tenantId, server]);
}
