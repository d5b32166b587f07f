import pg from 'pg';
import { awaitFreshRateWindow } from './helpers/rate-window.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ECHO_TOOL,
  type TestServer,
  newPostgresDatabase,
  putCustomTool,
  startTestServer,
  storages,
} from './helpers/test-server.js';

const postgres = storages().find((storage) => storage.kind === 'postgres');

/** Polls `check` every 50 ms, at most 100 times; answers whether it came true. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe.skipIf(postgres?.skip)('two server instances on one PostgreSQL', () => {
  let a: TestServer;
  let b: TestServer;
  let adminKey: string;

  beforeAll(async () => {
    const databaseUrl = await newPostgresDatabase();
    a = await startTestServer({ storage: 'postgres', databaseUrl, rateLimitPerMinute: 10 });
    b = await startTestServer({
      storage: 'postgres',
      databaseUrl,
      rateLimitPerMinute: 10,
      expectAdminKey: false,
    });
    adminKey = a.adminKey;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const toolNames = async (server: TestServer, key: string): Promise<string[]> =>
    (await server.api('GET', '/v1/tools', { key })).body.tools.map((tool: { name: string }) => tool.name);

  it('makes only the first instance print an admin key, and both accept it', async () => {
    expect(b.server.firstAdminKey).toBeUndefined();
    expect((await b.api('GET', '/v1/me', { key: adminKey })).body.kind).toBe('admin');
  });

  it('shows a custom tool created through one instance on the other, without a restart (LISTEN/NOTIFY)', async () => {
    expect(await toolNames(b, adminKey)).toEqual([]);
    await putCustomTool({ ...a, adminKey }, 'shared', ECHO_TOOL);
    expect(await eventually(async () => (await toolNames(b, adminKey)).includes('custom__shared'))).toBe(
      true,
    );
    const call = await b.api('POST', '/v1/tools/custom__shared/call', {
      key: adminKey,
      body: { arguments: { text: 'via b' } },
    });
    expect(call.body.result.content[0].text).toBe('[via b]\n');
    expect((await b.api('DELETE', '/v1/custom-tools/shared', { key: adminKey })).status).toBe(200);
    expect(await eventually(async () => !(await toolNames(a, adminKey)).includes('custom__shared'))).toBe(
      true,
    );
  });

  it('applies a grant made through one instance on the other', async () => {
    await putCustomTool({ ...a, adminKey }, 'granted', ECHO_TOOL);
    const key = (
      await a.api('POST', '/v1/keys', { key: adminKey, body: { kind: 'agent', principalId: 'roamer' } })
    ).body.key as string;
    expect(
      await eventually(
        async () => (await b.api('GET', '/v1/custom-tools', { key: adminKey })).body.tools.length > 0,
      ),
    ).toBe(true);
    // b builds its runtime for the tenant now, before the grant exists
    expect(await toolNames(b, key)).toEqual([]);
    await a.api('POST', '/v1/grants', {
      key: adminKey,
      body: { principalKind: 'agent', principalId: 'roamer', allow: ['custom__granted'] },
    });
    expect(await eventually(async () => (await toolNames(b, key)).includes('custom__granted'))).toBe(true);
  });

  const limitedKey = async (principalId: string): Promise<{ key: string; id: string }> => {
    const created = await a.api('POST', '/v1/keys', { key: adminKey, body: { kind: 'admin', principalId } });
    return { key: created.body.key as string, id: created.body.record.id as string };
  };
  const callOn = async (server: TestServer, key: string): Promise<number> =>
    (await server.api('POST', '/v1/tools/custom__granted/call', { key, body: { arguments: { text: 'r' } } }))
      .status;
  const sharedCount = async (keyId: string): Promise<number> => {
    const client = new pg.Client({ connectionString: a.databaseUrl });
    await client.connect();
    try {
      const rows = await client.query(
        'SELECT COALESCE(SUM(count), 0) AS n FROM rate_counters WHERE key_id = $1',
        [keyId],
      );
      return Number(rows.rows[0]?.n ?? 0);
    } finally {
      await client.end();
    }
  };

  it('holds one rate limit per key across both instances, within the calls of one flush interval', async () => {
    const { key } = await limitedKey('limited');
    await awaitFreshRateWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) for (const server of [a, b]) statuses.push(await callOn(server, key));
    const admitted = statuses.filter((status) => status === 200).length;
    // each instance alone admits at most the limit (10); together they pass it by what the other
    // admitted since its last exchange with the database
    expect(admitted).toBeGreaterThanOrEqual(10);
    expect(admitted).toBeLessThanOrEqual(20);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    // once both have exchanged their counts, both refuse the key
    const refusedOnBoth = await eventually(
      async () => (await callOn(a, key)) === 429 && (await callOn(b, key)) === 429,
    );
    expect(refusedOnBoth).toBe(true);
  });

  it('refuses on the other instance a key that used its limit on one, once the count is in the database', async () => {
    const { key, id } = await limitedKey('spent-on-a');
    await awaitFreshRateWindow();
    const onA: number[] = [];
    for (let i = 0; i < 11; i += 1) onA.push(await callOn(a, key));
    expect(onA).toEqual([...Array(10).fill(200), 429]);
    expect(await eventually(async () => (await sharedCount(id)) === 10)).toBe(true);
    // b has not seen the key in this window: it reads the shared count before judging
    expect(await callOn(b, key)).toBe(429);
  });

  it('refuses a key revoked through one instance on the other, though the other had it cached', async () => {
    const { key, id } = await limitedKey('revoked-elsewhere');
    expect((await b.api('GET', '/v1/me', { key })).status).toBe(200);
    expect((await a.api('DELETE', `/v1/keys/${id}`, { key: adminKey })).status).toBe(200);
    expect((await a.api('GET', '/v1/me', { key })).status).toBe(401);
    expect(await eventually(async () => (await b.api('GET', '/v1/me', { key })).status === 401)).toBe(true);
  });
});
