import type { SqlClient } from '../storage/database.js';
import type { CallRecord } from './call-record.js';

/**
 * Rows per INSERT. A batch is one statement with 12 array parameters (its cost grows with the
 * rows, not with a parameter list); a batch this size keeps each statement short, so the
 * queries queued behind it on the embedded database's one connection do not wait long.
 */
export const ROWS_PER_INSERT = 500;

interface CallRow {
  tenant_id: string;
  call_id: string;
  parent_id: string | null;
  origin_id: string;
  session_id: string;
  principal_kind: string;
  principal_id: string;
  tool: string;
  ok: boolean;
  code: string | null;
  latency_ms: number | string;
  started_at: Date | string;
}

function toRecord(row: CallRow): CallRecord {
  return {
    tenantId: row.tenant_id,
    callId: row.call_id,
    parentId: row.parent_id,
    originId: row.origin_id,
    sessionId: row.session_id,
    principalKind: row.principal_kind,
    principalId: row.principal_id,
    tool: row.tool,
    ok: row.ok,
    code: row.code,
    latencyMs: Number(row.latency_ms),
    startedAt: new Date(row.started_at).getTime(),
  };
}

/**
 * Writes records in one statement, one array a column unnested into rows (12 parameters
 * however many rows); a call id seen twice keeps its first record.
 */
export async function insertCallRecords(db: SqlClient, records: readonly CallRecord[]): Promise<void> {
  if (records.length === 0) return;
  const columns: unknown[][] = Array.from({ length: 12 }, () => new Array(records.length));
  records.forEach((record, row) => {
    const values = [
      record.tenantId,
      record.callId,
      record.parentId,
      record.originId,
      record.sessionId,
      record.principalKind,
      record.principalId,
      record.tool,
      record.ok,
      record.code,
      record.latencyMs,
      new Date(record.startedAt).toISOString(),
    ];
    for (let column = 0; column < values.length; column += 1)
      (columns[column] as unknown[])[row] = values[column];
  });
  await db.query(
    `INSERT INTO call_records (tenant_id, call_id, parent_id, origin_id, session_id, principal_kind,
       principal_id, tool, ok, code, latency_ms, started_at)
     SELECT tenant_id, call_id, parent_id, origin_id, session_id, principal_kind, principal_id, tool,
       ok, code, latency_ms, started_at::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
       $8::text[], $9::boolean[], $10::text[], $11::float8[], $12::text[])
       AS r (tenant_id, call_id, parent_id, origin_id, session_id, principal_kind, principal_id, tool,
         ok, code, latency_ms, started_at)
     ON CONFLICT (tenant_id, call_id) DO NOTHING`,
    columns,
  );
}

/** The record of one call of the tenant. */
export async function findCallRecord(
  db: SqlClient,
  tenantId: string,
  callId: string,
): Promise<CallRecord | undefined> {
  const [row] = await db.query<CallRow>('SELECT * FROM call_records WHERE tenant_id = $1 AND call_id = $2', [
    tenantId,
    callId,
  ]);
  return row ? toRecord(row) : undefined;
}

/** Every call of the tenant descending from the top-level call `originId`, oldest first. */
export async function listCallsOfOrigin(
  db: SqlClient,
  tenantId: string,
  originId: string,
  limit: number,
): Promise<CallRecord[]> {
  const rows = await db.query<CallRow>(
    'SELECT * FROM call_records WHERE tenant_id = $1 AND origin_id = $2 ORDER BY started_at, call_id LIMIT $3',
    [tenantId, originId, limit],
  );
  return rows.map(toRecord);
}

/** The tenant's most recent top-level calls, newest first. */
export async function listRecentCalls(db: SqlClient, tenantId: string, limit: number): Promise<CallRecord[]> {
  const rows = await db.query<CallRow>(
    'SELECT * FROM call_records WHERE tenant_id = $1 AND parent_id IS NULL ORDER BY started_at DESC, call_id LIMIT $2',
    [tenantId, limit],
  );
  return rows.map(toRecord);
}

/** Deletes records that started before `before` (epoch ms). */
export async function pruneCallRecords(db: SqlClient, before: number): Promise<void> {
  await db.query('DELETE FROM call_records WHERE started_at < $1', [new Date(before).toISOString()]);
}

/**
 * Keeps about the newest `keep` records of the tenant: deletes those that started before the
 * `keep`-th newest (records that started in the same millisecond as it stay).
 */
export async function pruneTenantBeyond(db: SqlClient, tenantId: string, keep: number): Promise<void> {
  await db.query(
    `DELETE FROM call_records WHERE tenant_id = $1 AND started_at < (
       SELECT started_at FROM call_records WHERE tenant_id = $1 ORDER BY started_at DESC OFFSET $2 LIMIT 1)`,
    [tenantId, keep - 1],
  );
}
