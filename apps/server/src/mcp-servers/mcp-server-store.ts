import type { McpServerConfig } from '@toolplane/mcp-provider';
import type { Cipher } from '../secrets/cipher.js';
import type { SqlClient } from '../storage/database.js';

/**
 * How the server authenticates to a remote MCP server: `none` (its config's headers, if any) or
 * `oauth-per-user` (each user links their own account; calls use that user's token).
 */
export type McpServerAuth = 'none' | 'oauth-per-user';

/** An MCP server registered at runtime; its config (with env and headers) is stored sealed. */
export interface McpServerRecord {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly auth: McpServerAuth;
  readonly updatedAt: string;
}

interface McpServerRow {
  name: string;
  config_sealed: string;
  auth: McpServerAuth | null;
  updated_at: Date | string;
}

/** Every MCP server of a tenant, configs opened. */
export async function listMcpServers(
  db: SqlClient,
  cipher: Cipher,
  tenantId: string,
): Promise<McpServerRecord[]> {
  const rows = await db.query<McpServerRow>('SELECT * FROM mcp_servers WHERE tenant_id = $1 ORDER BY name', [
    tenantId,
  ]);
  return rows.map((row) => ({
    name: row.name,
    config: JSON.parse(cipher.open(row.config_sealed)) as McpServerConfig,
    auth: row.auth ?? 'none',
    updatedAt: new Date(row.updated_at).toISOString(),
  }));
}

/** Registers or replaces a server; whether it is new. */
export async function putMcpServer(
  db: SqlClient,
  cipher: Cipher,
  tenantId: string,
  name: string,
  config: McpServerConfig,
  auth: McpServerAuth = 'none',
): Promise<boolean> {
  const [row] = await db.query<{ inserted: boolean }>(
    `INSERT INTO mcp_servers (tenant_id, name, config_sealed, auth) VALUES ($1, $2, $3, $4)
     ON CONFLICT (tenant_id, name) DO UPDATE SET config_sealed = EXCLUDED.config_sealed,
       auth = EXCLUDED.auth, updated_at = now()
     RETURNING (xmax = 0) AS inserted`,
    [tenantId, name, cipher.seal(JSON.stringify(config)), auth],
  );
  return row?.inserted === true;
}

/** Removes a server; whether the tenant had it. */
export async function deleteMcpServer(db: SqlClient, tenantId: string, name: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM mcp_servers WHERE tenant_id = $1 AND name = $2 RETURNING name', [
    tenantId,
    name,
  ]);
  return rows.length > 0;
}

/** What the API shows of a config: where the server is, the names of its env and headers. */
export function describeMcpConfig(config: McpServerConfig): Record<string, unknown> {
  if (config.type === 'stdio')
    return {
      type: 'stdio',
      command: config.command,
      args: config.args ?? [],
      envNames: Object.keys(config.env ?? {}),
    };
  return { type: config.type ?? 'http', url: config.url, headerNames: Object.keys(config.headers ?? {}) };
}
