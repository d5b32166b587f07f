import { randomUUID } from 'node:crypto';
import type { SqlClient } from '../storage/database.js';
import { generateApiKey, hashApiKey } from './api-key.js';
import type { PrincipalKind, ServerPrincipal } from './principal.js';

/** A key as the API shows it: never the key itself. */
export interface KeyRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly kind: PrincipalKind;
  readonly principalId: string;
  readonly label: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

interface KeyRow {
  id: string;
  tenant_id: string;
  kind: PrincipalKind;
  principal_id: string;
  label: string;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

function toRecord(row: KeyRow): KeyRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    kind: row.kind,
    principalId: row.principal_id,
    label: row.label,
    createdAt: iso(row.created_at) ?? '',
    revokedAt: iso(row.revoked_at),
  };
}

/** Creates a key; the answer holds the only copy of the key in plain text. */
export async function createKey(
  db: SqlClient,
  input: { tenantId: string; kind: PrincipalKind; principalId: string; label?: string },
): Promise<{ key: string; record: KeyRecord }> {
  const key = generateApiKey();
  const [row] = await db.query<KeyRow>(
    `INSERT INTO api_keys (id, tenant_id, kind, principal_id, key_hash, label)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [
      `key_${randomUUID()}`,
      input.tenantId,
      input.kind,
      input.principalId,
      hashApiKey(key),
      input.label ?? '',
    ],
  );
  return { key, record: toRecord(row as KeyRow) };
}

/** The principal of a key (by the key's sha-256), or why it has none, with the key's id. */
export async function findPrincipalByHash(
  db: SqlClient,
  hash: string,
): Promise<{ keyId: string; found: ServerPrincipal | 'revoked' } | 'unknown'> {
  const [row] = await db.query<KeyRow>('SELECT * FROM api_keys WHERE key_hash = $1', [hash]);
  if (!row) return 'unknown';
  if (row.revoked_at !== null) return { keyId: row.id, found: 'revoked' };
  return {
    keyId: row.id,
    found: { keyId: row.id, tenantId: row.tenant_id, kind: row.kind, id: row.principal_id },
  };
}

/** The keys of one tenant. */
export async function listKeys(db: SqlClient, tenantId: string): Promise<KeyRecord[]> {
  const rows = await db.query<KeyRow>('SELECT * FROM api_keys WHERE tenant_id = $1 ORDER BY created_at, id', [
    tenantId,
  ]);
  return rows.map(toRecord);
}

/** Revokes a key of the tenant; `undefined` when the tenant has no such key. */
export async function revokeKey(db: SqlClient, tenantId: string, id: string): Promise<KeyRecord | undefined> {
  const [row] = await db.query<KeyRow>(
    'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE tenant_id = $1 AND id = $2 RETURNING *',
    [tenantId, id],
  );
  return row ? toRecord(row) : undefined;
}

/** Whether the database holds no key at all (a first run). */
export async function hasNoKeys(db: SqlClient): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM api_keys LIMIT 1');
  return rows.length === 0;
}
