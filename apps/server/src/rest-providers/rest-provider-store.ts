import type { RestToolConfig } from '@toolplane/rest-openapi';
import type { Cipher } from '../secrets/cipher.js';
import type { SqlClient } from '../storage/database.js';

/** A REST provider as stored: its tool configs (imported from OpenAPI or given) and its env. */
export interface RestProviderRecord {
  readonly name: string;
  readonly tools: Readonly<Record<string, RestToolConfig>>;
  /** Where `${VAR}` in headers and auth comes from; stored sealed, never answered back. */
  readonly env: Readonly<Record<string, string>>;
  readonly updatedAt: string;
}

interface RestProviderRow {
  name: string;
  config_sealed: string;
  updated_at: Date | string;
}

/** Every REST provider of a tenant, configs opened. */
export async function listRestProviders(
  db: SqlClient,
  cipher: Cipher,
  tenantId: string,
): Promise<RestProviderRecord[]> {
  const rows = await db.query<RestProviderRow>(
    'SELECT * FROM rest_providers WHERE tenant_id = $1 ORDER BY name',
    [tenantId],
  );
  return rows.map((row) => {
    const config = JSON.parse(cipher.open(row.config_sealed)) as Pick<RestProviderRecord, 'tools' | 'env'>;
    return {
      name: row.name,
      tools: config.tools,
      env: config.env,
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  });
}

/** Registers or replaces a REST provider; whether it is new. */
export async function putRestProvider(
  db: SqlClient,
  cipher: Cipher,
  tenantId: string,
  record: Pick<RestProviderRecord, 'name' | 'tools' | 'env'>,
): Promise<boolean> {
  const [row] = await db.query<{ inserted: boolean }>(
    `INSERT INTO rest_providers (tenant_id, name, config_sealed) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, name) DO UPDATE SET config_sealed = EXCLUDED.config_sealed, updated_at = now()
     RETURNING (xmax = 0) AS inserted`,
    [tenantId, record.name, cipher.seal(JSON.stringify({ tools: record.tools, env: record.env }))],
  );
  return row?.inserted === true;
}

/** Removes a REST provider; whether the tenant had it. */
export async function deleteRestProvider(db: SqlClient, tenantId: string, name: string): Promise<boolean> {
  const rows = await db.query(
    'DELETE FROM rest_providers WHERE tenant_id = $1 AND name = $2 RETURNING name',
    [tenantId, name],
  );
  return rows.length > 0;
}
