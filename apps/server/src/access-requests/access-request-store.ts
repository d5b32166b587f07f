import { randomUUID } from 'node:crypto';
import type { Grant, GranteeKind } from '../grants/grant.js';
import { insertGrant } from '../grants/grant-store.js';
import { ApiError } from '../http/api-error.js';
import type { Database, SqlClient } from '../storage/database.js';

/** A principal's request for tools, answered by an admin. */
export interface AccessRequest {
  readonly id: string;
  readonly principalKind: GranteeKind;
  readonly principalId: string;
  readonly tools: string[];
  readonly reason: string;
  readonly status: 'pending' | 'approved' | 'rejected';
  readonly grantId: string | null;
  readonly createdAt: string;
  readonly decidedAt: string | null;
}

interface RequestRow {
  id: string;
  principal_kind: GranteeKind;
  principal_id: string;
  tools: string[];
  reason: string;
  status: AccessRequest['status'];
  grant_id: string | null;
  created_at: Date | string;
  decided_at: Date | string | null;
}

function toRequest(row: RequestRow): AccessRequest {
  return {
    id: row.id,
    principalKind: row.principal_kind,
    principalId: row.principal_id,
    tools: row.tools,
    reason: row.reason,
    status: row.status,
    grantId: row.grant_id,
    createdAt: new Date(row.created_at).toISOString(),
    decidedAt: row.decided_at === null ? null : new Date(row.decided_at).toISOString(),
  };
}

/** Files a request for the calling agent or user. */
export async function createAccessRequest(
  db: SqlClient,
  tenantId: string,
  input: { principalKind: GranteeKind; principalId: string; tools: readonly string[]; reason: string },
): Promise<AccessRequest> {
  const [row] = await db.query<RequestRow>(
    `INSERT INTO access_requests (id, tenant_id, principal_kind, principal_id, tools, reason, status)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, 'pending') RETURNING *`,
    [
      `req_${randomUUID()}`,
      tenantId,
      input.principalKind,
      input.principalId,
      JSON.stringify(input.tools),
      input.reason,
    ],
  );
  return toRequest(row as RequestRow);
}

/** A tenant's requests (all of them, or one principal's). */
export async function listAccessRequests(
  db: SqlClient,
  tenantId: string,
  principal?: { kind: GranteeKind; id: string },
): Promise<AccessRequest[]> {
  const rows = principal
    ? await db.query<RequestRow>(
        'SELECT * FROM access_requests WHERE tenant_id = $1 AND principal_kind = $2 AND principal_id = $3 ORDER BY created_at, id',
        [tenantId, principal.kind, principal.id],
      )
    : await db.query<RequestRow>(
        'SELECT * FROM access_requests WHERE tenant_id = $1 ORDER BY created_at, id',
        [tenantId],
      );
  return rows.map(toRequest);
}

/**
 * Approves or rejects a pending request. An approval creates its grant in the same
 * transaction, so there is never an approved request without its grant, nor a grant of a
 * request still pending; a request decided already is refused with 409.
 */
export async function decideAccessRequest(
  db: Database,
  tenantId: string,
  id: string,
  decision: 'approve' | 'reject',
): Promise<{ request: AccessRequest; grant?: Grant }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<RequestRow>(
      'SELECT * FROM access_requests WHERE tenant_id = $1 AND id = $2 FOR UPDATE',
      [tenantId, id],
    );
    if (!row)
      throw new ApiError(404, 'INVALID_ARGUMENTS', 'not_found', `no access request "${id}" in this tenant`);
    if (row.status !== 'pending')
      throw new ApiError(
        409,
        'INVALID_ARGUMENTS',
        'already_decided',
        `access request "${id}" was ${row.status} already`,
      );
    let grant: Grant | undefined;
    if (decision === 'approve')
      grant = await insertGrant(tx, tenantId, {
        principalKind: row.principal_kind,
        principalId: row.principal_id,
        allow: row.tools,
      });
    const [updated] = await tx.query<RequestRow>(
      `UPDATE access_requests SET status = $3, grant_id = $4, decided_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      [tenantId, id, decision === 'approve' ? 'approved' : 'rejected', grant?.id ?? null],
    );
    return { request: toRequest(updated as RequestRow), ...(grant ? { grant } : {}) };
  });
}
