import { randomUUID } from 'node:crypto';
import type { SqlClient } from '../storage/database.js';
import type { Grant, GranteeKind } from './grant.js';

interface GrantRow {
  id: string;
  tenant_id: string;
  principal_kind: GranteeKind;
  principal_id: string;
  allow: string[];
  deny: string[];
  enabled: boolean;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
}

function toGrant(row: GrantRow): Grant {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    principalKind: row.principal_kind,
    principalId: row.principal_id,
    allow: row.allow,
    deny: row.deny,
    enabled: row.enabled,
    version: row.version,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** What a grant is made of. */
export interface GrantInput {
  readonly principalKind: GranteeKind;
  readonly principalId: string;
  readonly allow: readonly string[];
  readonly deny?: readonly string[];
  readonly enabled?: boolean;
}

/** Every grant of a tenant. */
export async function listGrants(db: SqlClient, tenantId: string): Promise<Grant[]> {
  const rows = await db.query<GrantRow>('SELECT * FROM grants WHERE tenant_id = $1 ORDER BY created_at, id', [
    tenantId,
  ]);
  return rows.map(toGrant);
}

/** One grant of a tenant, if it has it. */
export async function getGrant(db: SqlClient, tenantId: string, id: string): Promise<Grant | undefined> {
  const [row] = await db.query<GrantRow>('SELECT * FROM grants WHERE tenant_id = $1 AND id = $2', [
    tenantId,
    id,
  ]);
  return row ? toGrant(row) : undefined;
}

/** Adds a grant (in the caller's transaction when `db` is one). */
export async function insertGrant(db: SqlClient, tenantId: string, input: GrantInput): Promise<Grant> {
  const [row] = await db.query<GrantRow>(
    `INSERT INTO grants (id, tenant_id, principal_kind, principal_id, allow, deny, enabled)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7) RETURNING *`,
    [
      `grant_${randomUUID()}`,
      tenantId,
      input.principalKind,
      input.principalId,
      JSON.stringify(input.allow),
      JSON.stringify(input.deny ?? []),
      input.enabled ?? true,
    ],
  );
  return toGrant(row as GrantRow);
}

/**
 * Changes the lists or the enabled flag of a grant. With `expectedVersion`, the change applies
 * only if the grant is still at that version (two admins editing at once: the second gets
 * `conflict`); `undefined` when the tenant has no such grant.
 */
export async function updateGrant(
  db: SqlClient,
  tenantId: string,
  id: string,
  patch: { allow?: readonly string[]; deny?: readonly string[]; enabled?: boolean },
  expectedVersion?: number,
): Promise<Grant | 'conflict' | undefined> {
  const [row] = await db.query<GrantRow>(
    `UPDATE grants SET
       allow = COALESCE($3::jsonb, allow),
       deny = COALESCE($4::jsonb, deny),
       enabled = COALESCE($5, enabled),
       version = version + 1,
       updated_at = now()
     WHERE tenant_id = $1 AND id = $2 AND ($6::integer IS NULL OR version = $6::integer) RETURNING *`,
    [
      tenantId,
      id,
      patch.allow ? JSON.stringify(patch.allow) : null,
      patch.deny ? JSON.stringify(patch.deny) : null,
      patch.enabled ?? null,
      expectedVersion ?? null,
    ],
  );
  if (row) return toGrant(row);
  if (expectedVersion !== undefined && (await getGrant(db, tenantId, id))) return 'conflict';
  return undefined;
}

/** Deletes a grant; whether the tenant had it. */
export async function deleteGrant(db: SqlClient, tenantId: string, id: string): Promise<boolean> {
  await db.query('UPDATE access_requests SET grant_id = NULL WHERE tenant_id = $1 AND grant_id = $2', [
    tenantId,
    id,
  ]);
  const rows = await db.query('DELETE FROM grants WHERE tenant_id = $1 AND id = $2 RETURNING id', [
    tenantId,
    id,
  ]);
  return rows.length > 0;
}
