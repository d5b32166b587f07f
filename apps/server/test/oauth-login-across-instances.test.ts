import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OAuthFixture, authorizeAs, startOAuthFixture } from './helpers/oauth-fixture.js';
import {
  type TestServer,
  grant,
  makeKey,
  newPostgresDatabase,
  startTestServer,
  storages,
} from './helpers/test-server.js';

const postgres = storages().find((storage) => storage.kind === 'postgres');

describe.skipIf(postgres?.skip)('a per-user OAuth login on two server instances', () => {
  let a: TestServer;
  let b: TestServer;
  let fixture: OAuthFixture;
  let alice: string;

  beforeAll(async () => {
    fixture = await startOAuthFixture();
    const databaseUrl = await newPostgresDatabase();
    a = await startTestServer({ storage: 'postgres', databaseUrl });
    // instances behind one load balancer share the database and the secret key
    b = await startTestServer({
      storage: 'postgres',
      databaseUrl,
      secretKey: a.secretKey,
      expectAdminKey: false,
    });
    const put = await a.api('PUT', '/v1/mcp-servers/docs', {
      key: a.adminKey,
      body: { type: 'http', url: fixture.mcpUrl, auth: 'oauth-per-user' },
    });
    if (put.status !== 200) throw new Error(`server refused: ${JSON.stringify(put.body)}`);
    alice = await makeKey(a, a.adminKey, 'user', 'alice');
    await grant(a, 'user', 'alice', ['docs__*']);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await fixture?.close();
  });

  it('completes on the other instance a login started on one, once only', async () => {
    const started = await a.api('POST', '/v1/mcp-servers/docs/oauth/start', { key: alice });
    expect(started.status).toBe(200);
    const callback = await authorizeAs(started.body.authorizationUrl, 'alice');
    // a load balancer sends the browser's callback to the other instance
    const onB = new URL(`${callback.pathname}${callback.search}`, b.url);
    const finished = await fetch(onB);
    expect(finished.status).toBe(200);
    for (const server of [a, b]) {
      const call = await server.api('POST', '/v1/tools/docs__whoami/call', {
        key: alice,
        body: { arguments: {} },
      });
      expect(call.status).toBe(200);
      expect(call.body.result.content[0].text).toMatch(/^user=alice /);
    }
    // the state was taken by b: replaying the callback on a finds no login in progress
    const replay = new URL(`${callback.pathname}${callback.search}`, a.url);
    const again = await fetch(replay);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: { reason: string } }).error.reason).toBe('oauth_state_invalid');
  });

  it('keeps the pending login sealed in the database, never its state or verifier in plain text', async () => {
    const started = await a.api('POST', '/v1/mcp-servers/docs/oauth/start', { key: alice });
    const state = new URL(started.body.authorizationUrl).searchParams.get('state') ?? '';
    expect(state.length).toBeGreaterThan(10);
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: a.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT * FROM mcp_pending_logins');
      expect(rows).toHaveLength(1);
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(state);
      expect(dump).not.toContain('code_verifier');
      expect(rows[0].user_id).toBe('alice');
    } finally {
      await client.end();
    }
  });
});
