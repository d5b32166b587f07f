import type { ToolSpec } from '@toolplane/core';
import type { SqlClient } from '../storage/database.js';

/**
 * The tool list of a per-user OAuth server as last listed through some user's connection. It
 * is kept so the tenant's registry names the tools before the calling user has a connection
 * (a call then answers `AUTH_REQUIRED`, not `TOOL_NOT_FOUND`). Specs hold no credentials.
 */
export async function readKnownTools(
  db: SqlClient,
  tenantId: string,
  server: string,
): Promise<readonly ToolSpec[]> {
  const [row] = await db.query<{ known_tools: unknown }>(
    'SELECT known_tools FROM mcp_servers WHERE tenant_id = $1 AND name = $2',
    [tenantId, server],
  );
  const value = typeof row?.known_tools === 'string' ? JSON.parse(row.known_tools) : row?.known_tools;
  return Array.isArray(value) ? (value as ToolSpec[]) : [];
}

/** Stores the tool list; whether it differs from the stored one. */
export async function writeKnownTools(
  db: SqlClient,
  tenantId: string,
  server: string,
  tools: readonly ToolSpec[],
): Promise<boolean> {
  const before = JSON.stringify(await readKnownTools(db, tenantId, server));
  const after = JSON.stringify(tools);
  if (before === after) return false;
  await db.query('UPDATE mcp_servers SET known_tools = $3::jsonb WHERE tenant_id = $1 AND name = $2', [
    tenantId,
    server,
    after,
  ]);
  return true;
}
