import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PostgresCluster,
  createTestDatabase,
  findPostgresBin,
  startPostgresCluster,
} from './helpers/postgres-cluster.js';
import { ECHO_TOOL, type TestServer, putCustomTool, startTestServer } from './helpers/test-server.js';

const bin = findPostgresBin();

/** Polls `check` every 100 ms, at most 150 times; answers whether it came true. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    if (await check().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

// A cluster of its own: stopping the run's shared cluster would fail the other files
describe.skipIf(!bin)('PostgreSQL going away and coming back', () => {
  let cluster: PostgresCluster;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    cluster = await startPostgresCluster(bin as string);
    const databaseUrl = await createTestDatabase(cluster);
    a = await startTestServer({ storage: 'postgres', databaseUrl });
    b = await startTestServer({ storage: 'postgres', databaseUrl, expectAdminKey: false });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    cluster?.stop();
  });

  const keysStatus = async (server: TestServer): Promise<number> =>
    (await server.api('GET', '/v1/keys', { key: a.adminKey })).status;

  it('answers 503 PROVIDER_UNAVAILABLE database_unavailable while it is down, and serves again once it is back, without a restart', async () => {
    expect(await keysStatus(a)).toBe(200);
    // b builds its tools now, so it learns of later changes only from notifications
    expect((await b.api('GET', '/v1/tools', { key: a.adminKey })).status).toBe(200);
    cluster.pause();
    try {
      const down = await a.api('GET', '/v1/keys', { key: a.adminKey });
      expect([down.status, down.body.error.code, down.body.error.reason]).toEqual([
        503,
        'PROVIDER_UNAVAILABLE',
        'database_unavailable',
      ]);
      expect(down.headers.get('retry-after')).toBe('1');
      expect(down.body.error.message).toMatch(/retry/);
      // a key the server cannot look up is not called invalid: the answer says why
      const stranger = await a.api('GET', '/v1/me', { key: `tpk_${randomBytes(32).toString('base64url')}` });
      expect([stranger.status, stranger.body.error.reason]).toEqual([503, 'database_unavailable']);
      expect((await a.api('GET', '/readyz')).status).toBe(503);
      expect((await a.api('GET', '/healthz')).status).toBe(200);
    } finally {
      cluster.resume();
    }
    expect(await eventually(async () => (await keysStatus(a)) === 200)).toBe(true);
    expect((await a.api('GET', '/readyz')).status).toBe(200);
    expect(a.logs.some((line) => line.includes('"level":"error"') && line.includes('INTERNAL'))).toBe(false);
  });

  it('tells the other instances of changes again once the listening connection is back', async () => {
    // the outage above dropped both instances' LISTEN connections
    await putCustomTool(a, 'after_outage', ECHO_TOOL);
    expect(
      await eventually(async () => {
        const tools = await b.api('GET', '/v1/tools', { key: a.adminKey });
        return tools.body.tools.some((tool: { name: string }) => tool.name === 'custom__after_outage');
      }),
    ).toBe(true);
  });

  it('answers every request in flight while its backends are terminated with 200 or 503, never 500, and recovers', async () => {
    const admin = new pg.Client({
      host: cluster.socketDir,
      port: cluster.port,
      user: 'postgres',
      database: 'postgres',
    });
    await admin.connect();
    try {
      const answers = Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? a : b).api('GET', '/v1/keys', { key: a.adminKey }),
      );
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname LIKE 'tp_%' AND pid <> pg_backend_pid()",
      );
      const more = Array.from({ length: 20 }, () => a.api('GET', '/v1/keys', { key: a.adminKey }));
      const settled = await Promise.all([...answers, ...more]);
      const unexpected = settled.filter(
        (answer) =>
          answer.status !== 200 &&
          !(answer.status === 503 && answer.body.error.reason === 'database_unavailable'),
      );
      expect(unexpected.map((answer) => [answer.status, answer.body])).toEqual([]);
    } finally {
      await admin.end();
    }
    expect(await eventually(async () => (await keysStatus(a)) === 200 && (await keysStatus(b)) === 200)).toBe(
      true,
    );
  });
});
