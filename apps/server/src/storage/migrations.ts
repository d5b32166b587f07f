import type { Database } from './database.js';

/**
 * The schema, in the SQL both PGlite and PostgreSQL run. A migration is never edited once
 * shipped: a change is a new entry.
 */
export const MIGRATIONS: readonly { readonly id: string; readonly sql: string }[] = [
  {
    id: '0001-initial',
    sql: `
CREATE TABLE tenants (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id),
  kind text NOT NULL CHECK (kind IN ('admin', 'agent', 'user')),
  principal_id text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  label text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE TABLE custom_tools (
  tenant_id text NOT NULL REFERENCES tenants(id),
  name text NOT NULL,
  description text NOT NULL,
  parameters jsonb NOT NULL,
  argv jsonb NOT NULL,
  timeout_ms integer NOT NULL,
  cwd text,
  env_sealed text,
  scope_agent text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, name)
);
CREATE TABLE mcp_servers (
  tenant_id text NOT NULL REFERENCES tenants(id),
  name text NOT NULL,
  config_sealed text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, name)
);
CREATE TABLE grants (
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id),
  principal_kind text NOT NULL CHECK (principal_kind IN ('agent', 'user')),
  principal_id text NOT NULL,
  allow jsonb NOT NULL,
  deny jsonb NOT NULL,
  enabled boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX grants_principal ON grants (tenant_id, principal_kind, principal_id);
CREATE TABLE access_requests (
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id),
  principal_kind text NOT NULL CHECK (principal_kind IN ('agent', 'user')),
  principal_id text NOT NULL,
  tools jsonb NOT NULL,
  reason text NOT NULL DEFAULT '',
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  grant_id text REFERENCES grants(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz
);
`,
  },
  {
    id: '0002-versions-rates-rest',
    sql: `
ALTER TABLE grants ADD COLUMN version integer NOT NULL DEFAULT 1;
CREATE TABLE rate_counters (
  key_id text NOT NULL,
  window_start bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (key_id, window_start)
);
CREATE TABLE rest_providers (
  tenant_id text NOT NULL REFERENCES tenants(id),
  name text NOT NULL,
  config_sealed text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, name)
);
`,
  },
  {
    id: '0003-call-records',
    sql: `
CREATE TABLE call_records (
  tenant_id text NOT NULL,
  call_id text NOT NULL,
  parent_id text,
  origin_id text NOT NULL,
  session_id text NOT NULL,
  principal_kind text NOT NULL,
  principal_id text NOT NULL,
  tool text NOT NULL,
  ok boolean NOT NULL,
  code text,
  latency_ms double precision NOT NULL,
  started_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, call_id)
);
CREATE INDEX call_records_origin ON call_records (tenant_id, origin_id);
CREATE INDEX call_records_recent ON call_records (tenant_id, started_at);
`,
  },
  {
    id: '0004-mcp-oauth-per-user',
    sql: `
ALTER TABLE mcp_servers ADD COLUMN auth text NOT NULL DEFAULT 'none' CHECK (auth IN ('none', 'oauth-per-user'));
ALTER TABLE mcp_servers ADD COLUMN known_tools jsonb;
CREATE TABLE mcp_user_tokens (
  tenant_id text NOT NULL REFERENCES tenants(id),
  user_id text NOT NULL,
  server text NOT NULL,
  record_sealed text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id, server)
);
`,
  },
  {
    id: '0005-mcp-pending-logins',
    sql: `
CREATE TABLE mcp_pending_logins (
  state_hash text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id),
  user_id text NOT NULL,
  server text NOT NULL,
  pending_sealed text NOT NULL,
  expires_at timestamptz NOT NULL,
  UNIQUE (tenant_id, user_id, server)
);
CREATE INDEX mcp_pending_logins_expiry ON mcp_pending_logins (expires_at);
`,
  },
];

/** Applies the migrations not applied yet, each in its own transaction. */
export async function migrate(db: Database): Promise<string[]> {
  await db.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const done = new Set(
    (await db.query<{ id: string }>('SELECT id FROM schema_migrations')).map((row) => row.id),
  );
  const applied: string[] = [];
  for (const migration of MIGRATIONS) {
    if (done.has(migration.id)) continue;
    await db.transaction(async (tx) => {
      for (const statement of migration.sql.split(';').map((part) => part.trim()))
        if (statement) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
    });
    applied.push(migration.id);
  }
  return applied;
}
