import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../../src/index.js';
import { createTestDatabase } from './postgres-cluster.js';

/** The storages every end-to-end file runs on. */
export type StorageKind = 'pglite' | 'postgres';

/** Both storages; PostgreSQL only where the global setup could start a cluster. */
export function storages(): { kind: StorageKind; skip: string | undefined }[] {
  const postgres = inject('postgres');
  return [
    { kind: 'pglite', skip: undefined },
    { kind: 'postgres', skip: 'unavailable' in postgres ? postgres.unavailable : undefined },
  ];
}

/** A parsed JSON answer. */
export interface ApiAnswer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answer bodies by path
  readonly body: any;
  readonly headers: Headers;
}

/** A server on a loopback port with its own database. */
export interface TestServer {
  readonly server: RunningServer;
  readonly url: string;
  readonly adminKey: string;
  readonly stateDir: string;
  readonly databaseUrl: string | undefined;
  readonly secretKey: string;
  readonly logs: string[];
  /** A JSON request; `key` is sent as a bearer key. */
  api(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiAnswer>;
  close(): Promise<void>;
}

/** A fresh PostgreSQL database in the run's cluster. */
export async function newPostgresDatabase(): Promise<string> {
  const postgres = inject('postgres');
  if ('unavailable' in postgres) throw new Error(postgres.unavailable);
  return createTestDatabase(postgres);
}

/**
 * Starts a server on a fresh database: a copy of the prepared embedded database, or a new
 * database in the run's PostgreSQL cluster (or `databaseUrl` to share one between instances).
 * With `reuse`, it starts again on the state directory, database and secret key of a server
 * that was closed (a restart); the first admin key stays that server's.
 */
export async function startTestServer(
  options: ServerOptions & { storage?: StorageKind; expectAdminKey?: boolean; reuse?: TestServer } = {},
): Promise<TestServer> {
  const { storage = 'pglite', reuse, expectAdminKey: expectKey, ...serverOptions } = options;
  const expectAdminKey = expectKey ?? reuse === undefined;
  const stateDir = reuse?.stateDir ?? mkdtempSync(join(tmpdir(), 'toolplane-server-'));
  let databaseUrl = serverOptions.databaseUrl ?? reuse?.databaseUrl;
  if (storage === 'postgres') databaseUrl ??= await newPostgresDatabase();
  else if (!reuse) cpSync(inject('pgliteTemplate'), join(stateDir, 'db'), { recursive: true });
  const secretKey = serverOptions.secretKey ?? reuse?.secretKey ?? randomBytes(32).toString('base64');
  const logs: string[] = [];
  const server = await startServer({
    stateDir,
    port: 0,
    secretKey,
    log: (line) => logs.push(line),
    ...serverOptions,
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  if (expectAdminKey && !server.firstAdminKey) throw new Error('a fresh database made no admin key');
  const adminKey = server.firstAdminKey ?? reuse?.adminKey ?? '';
  return {
    server,
    url: server.url,
    adminKey,
    stateDir,
    databaseUrl,
    secretKey,
    logs,
    async api(method, path, { key, body, headers = {} } = {}) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async close() {
      await server.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Makes a key of `kind` for `principalId` in the tenant of `adminKey`. */
export async function makeKey(
  test: TestServer,
  adminKey: string,
  kind: 'admin' | 'agent' | 'user',
  principalId: string,
): Promise<string> {
  const created = await test.api('POST', '/v1/keys', { key: adminKey, body: { kind, principalId } });
  if (created.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(created.body)}`);
  return created.body.key as string;
}

/** A custom tool that prints each argument on its own line (`printf '[%s]\n'`). */
export const ECHO_TOOL = {
  description: 'Prints its text argument in brackets',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  argv: ['printf', '[%s]\\n', '{text}'],
} as const;

/** Defines a custom tool through the API, failing loudly when it is refused. */
export async function putCustomTool(test: TestServer, name: string, body: unknown): Promise<void> {
  const put = await test.api('PUT', `/v1/custom-tools/${name}`, { key: test.adminKey, body });
  if (put.status !== 201 && put.status !== 200)
    throw new Error(`custom tool ${name} refused: ${JSON.stringify(put.body)}`);
}

/** Grants `allow` (and `deny`) to an agent or user. */
export async function grant(
  test: TestServer,
  principalKind: 'agent' | 'user',
  principalId: string,
  allow: string[],
  deny: string[] = [],
): Promise<{ id: string; version: number }> {
  const created = await test.api('POST', '/v1/grants', {
    key: test.adminKey,
    body: { principalKind, principalId, allow, deny },
  });
  if (created.status !== 201) throw new Error(`grant refused: ${JSON.stringify(created.body)}`);
  return created.body.grant;
}
