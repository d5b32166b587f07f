import type { JsonSchema } from '@toolplane/core';
import type { Cipher } from '../secrets/cipher.js';
import type { SqlClient } from '../storage/database.js';
import type { CustomTool } from './custom-tool.js';

interface CustomToolRow {
  tenant_id: string;
  name: string;
  description: string;
  parameters: JsonSchema;
  argv: string[];
  timeout_ms: number;
  cwd: string | null;
  env_sealed: string | null;
  scope_agent: string | null;
  updated_at: Date | string;
}

/** What an admin sends to define a custom tool. */
export type CustomToolInput = Omit<CustomTool, 'tenantId' | 'updatedAt'>;

function toTool(row: CustomToolRow, cipher: Cipher): CustomTool {
  return {
    tenantId: row.tenant_id,
    name: row.name,
    description: row.description,
    parameters: row.parameters,
    argv: row.argv,
    timeoutMs: row.timeout_ms,
    cwd: row.cwd,
    env: row.env_sealed ? (JSON.parse(cipher.open(row.env_sealed)) as Record<string, string>) : {},
    scopeAgent: row.scope_agent,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** Every custom tool of a tenant, environments opened. */
export async function listCustomTools(
  db: SqlClient,
  cipher: Cipher,
  tenantId: string,
): Promise<CustomTool[]> {
  const rows = await db.query<CustomToolRow>(
    'SELECT * FROM custom_tools WHERE tenant_id = $1 ORDER BY name',
    [tenantId],
  );
  return rows.map((row) => toTool(row, cipher));
}

/** Creates or replaces a custom tool; `created` tells which. */
export async function putCustomTool(
  db: SqlClient,
  cipher: Cipher,
  tenantId: string,
  input: CustomToolInput,
): Promise<{ tool: CustomTool; created: boolean }> {
  const env = Object.keys(input.env).length > 0 ? cipher.seal(JSON.stringify(input.env)) : null;
  const [row] = await db.query<CustomToolRow & { inserted: boolean }>(
    `INSERT INTO custom_tools (tenant_id, name, description, parameters, argv, timeout_ms, cwd, env_sealed, scope_agent)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, $9)
     ON CONFLICT (tenant_id, name) DO UPDATE SET
       description = EXCLUDED.description, parameters = EXCLUDED.parameters, argv = EXCLUDED.argv,
       timeout_ms = EXCLUDED.timeout_ms, cwd = EXCLUDED.cwd, env_sealed = EXCLUDED.env_sealed,
       scope_agent = EXCLUDED.scope_agent, updated_at = now()
     RETURNING *, (xmax = 0) AS inserted`,
    [
      tenantId,
      input.name,
      input.description,
      JSON.stringify(input.parameters),
      JSON.stringify(input.argv),
      input.timeoutMs,
      input.cwd,
      env,
      input.scopeAgent,
    ],
  );
  const stored = row as CustomToolRow & { inserted: boolean };
  return { tool: toTool(stored, cipher), created: stored.inserted };
}

/** Deletes a custom tool; whether the tenant had it. */
export async function deleteCustomTool(db: SqlClient, tenantId: string, name: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM custom_tools WHERE tenant_id = $1 AND name = $2 RETURNING name', [
    tenantId,
    name,
  ]);
  return rows.length > 0;
}
