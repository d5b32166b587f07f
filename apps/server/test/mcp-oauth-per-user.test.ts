import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher } from '../src/secrets/cipher.js';
import { openDatabase } from '../src/storage/open.js';
import { connectMcp } from './helpers/mcp-client.js';
import { type OAuthFixture, authorizeAs, startOAuthFixture } from './helpers/oauth-fixture.js';
import { type TestServer, grant, makeKey, startTestServer, storages } from './helpers/test-server.js';

/** Links `user`'s account: start with their key, play their browser, come back to the callback. */
async function link(t: TestServer, key: string, user: string): Promise<{ callback: URL; status: number }> {
  const started = await t.api('POST', '/v1/mcp-servers/docs/oauth/start', { key });
  if (started.status !== 200) throw new Error(`start refused: ${JSON.stringify(started.body)}`);
  const callback = await authorizeAs(started.body.authorizationUrl, user);
  const answer = await fetch(callback);
  return { callback, status: answer.status };
}

const whoami = (t: TestServer, key: string) =>
  t.api('POST', '/v1/tools/docs__whoami/call', { key, body: { arguments: {} } });

describe.each(storages())('per-user OAuth to a remote MCP server on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let fixture: OAuthFixture;
  let alice: string;
  let bob: string;
  let agent: string;
  let carol: string;

  beforeAll(async () => {
    if (skip) return;
    fixture = await startOAuthFixture();
    t = await startTestServer({ storage: kind });
    const put = await t.api('PUT', '/v1/mcp-servers/docs', {
      key: t.adminKey,
      body: { type: 'http', url: fixture.mcpUrl, auth: 'oauth-per-user' },
    });
    if (put.status !== 200) throw new Error(`server refused: ${JSON.stringify(put.body)}`);
    alice = await makeKey(t, t.adminKey, 'user', 'alice');
    bob = await makeKey(t, t.adminKey, 'user', 'bob');
    agent = await makeKey(t, t.adminKey, 'agent', 'coder');
    carol = await makeKey(t, t.adminKey, 'user', 'carol');
    for (const user of ['alice', 'bob']) await grant(t, 'user', user, ['docs__*', 'declared__*']);
    await grant(t, 'agent', 'coder', ['docs__*']);
  });
  afterAll(async () => {
    await t?.close();
    await fixture?.close();
  });

  it.skipIf(skip)(
    'lists the server with its auth and refuses oauth-per-user where it cannot work',
    async () => {
      const list = await t.api('GET', '/v1/mcp-servers', { key: t.adminKey });
      expect(list.body.servers[0].config.auth).toBe('oauth-per-user');
      const refusals = [
        { type: 'stdio', command: 'node', auth: 'oauth-per-user' },
        { type: 'websocket', url: 'ws://127.0.0.1:1/mcp', auth: 'oauth-per-user' },
        { type: 'http', url: fixture.mcpUrl, auth: 'oauth-per-user', headers: { Authorization: 'Bearer x' } },
      ];
      for (const body of refusals) {
        const put = await t.api('PUT', '/v1/mcp-servers/broken', { key: t.adminKey, body });
        expect(put.status).toBe(400);
        expect(put.body.error.reason).toBe('invalid_mcp_server');
      }
      const unknown = await t.api('PUT', '/v1/mcp-servers/broken', {
        key: t.adminKey,
        body: { type: 'http', url: fixture.mcpUrl, auth: 'oauth-shared' },
      });
      expect(unknown.status).toBe(400);
    },
  );

  it.skipIf(skip)('documents the link routes in /openapi.json, the callback without security', async () => {
    const doc = (await t.api('GET', '/openapi.json')).body;
    expect(doc.paths['/v1/mcp-servers/{name}/oauth/start'].post.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/v1/mcp-servers/{name}/oauth'].delete.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/v1/oauth/callback'].get.security).toBeUndefined();
  });

  it.skipIf(skip)('answers oauth_start_failed when the server cannot be reached', async () => {
    const gone = await startOAuthFixture();
    await gone.close();
    await t.api('PUT', '/v1/mcp-servers/gone', {
      key: t.adminKey,
      body: { type: 'http', url: gone.mcpUrl, auth: 'oauth-per-user' },
    });
    const started = await t.api('POST', '/v1/mcp-servers/gone/oauth/start', { key: alice });
    expect(started.status).toBe(502);
    expect(started.body.error.reason).toBe('oauth_start_failed');
    expect((await t.api('DELETE', '/v1/mcp-servers/gone', { key: t.adminKey })).status).toBe(200);
  });

  it.skipIf(skip)('refuses the link routes without a key and to admins and agents', async () => {
    for (const [method, path] of [
      ['POST', '/v1/mcp-servers/docs/oauth/start'],
      ['DELETE', '/v1/mcp-servers/docs/oauth'],
    ] as const) {
      expect((await t.api(method, path)).status).toBe(401);
      for (const key of [t.adminKey, agent]) {
        const refused = await t.api(method, path, { key });
        expect(refused.status).toBe(403);
        expect(refused.body.error.reason).toBe('user_only');
      }
    }
    const missing = await t.api('POST', '/v1/mcp-servers/nope/oauth/start', { key: alice });
    expect(missing.status).toBe(404);
  });

  it.skipIf(skip)('tells a user to link before any user linked, sending nothing upstream', async () => {
    const before = fixture.counts.mcpRequests;
    for (const name of ['docs__whoami', 'docs__anything']) {
      const call = await t.api('POST', `/v1/tools/${name}/call`, { key: bob, body: { arguments: {} } });
      expect(call.status).toBe(403);
      expect(call.body.result.error.code).toBe('DENIED');
      expect(call.body.result.error.details).toMatchObject({ server: 'docs', reason: 'AUTH_REQUIRED' });
      expect(call.body.result.error.message).toContain('POST /v1/mcp-servers/docs/oauth/start');
    }
    const agentCall = await whoami(t, agent);
    expect(agentCall.body.result.error.details.reason).toBe('AUTH_REQUIRED');
    expect(agentCall.body.result.error.message).toContain('only a user key');
    // a user whose grants do not reach the server learns nothing of it
    const ungranted = await whoami(t, carol);
    expect(ungranted.status).toBe(404);
    expect(ungranted.body.result.error.code).toBe('TOOL_NOT_FOUND');
    expect(fixture.counts.mcpRequests).toBe(before);
  });

  it.skipIf(skip)('names the servers waiting for a link in the REST tool list, not on /mcp', async () => {
    const listed = await t.api('GET', '/v1/tools', { key: bob });
    expect(listed.body.needsLink).toEqual([
      { server: 'docs', start: 'POST /v1/mcp-servers/docs/oauth/start' },
    ]);
    expect(listed.body.tools.filter((tool: { name: string }) => tool.name.startsWith('docs__'))).toEqual([]);
    for (const key of [carol, agent, t.adminKey])
      expect((await t.api('GET', '/v1/tools', { key })).body.needsLink).toBeUndefined();
    await using client = await connectMcp(t.url, bob);
    const { tools } = await client.listTools();
    expect(tools.filter((tool) => tool.name.startsWith('docs__'))).toEqual([]);
  });

  it.skipIf(skip)("runs each user's calls with that user's own token only", async () => {
    const linked = await link(t, alice, 'alice');
    expect(linked.status).toBe(200);
    const a = await whoami(t, alice);
    expect(a.status).toBe(200);
    expect(a.body.result.content[0].text).toMatch(/^user=alice /);

    const b = await whoami(t, bob);
    expect(b.status).toBe(403);
    expect(b.body.result.error.code).toBe('DENIED');
    expect(b.body.result.error.details.reason).toBe('AUTH_REQUIRED');
    expect(b.body.result.error.message).toContain('POST /v1/mcp-servers/docs/oauth/start');
    const lists = {
      alice: (await t.api('GET', '/v1/tools', { key: alice })).body,
      bob: (await t.api('GET', '/v1/tools', { key: bob })).body,
    };
    expect(lists.alice.needsLink).toBeUndefined();
    expect(lists.alice.tools.map((tool: { name: string }) => tool.name)).toContain('docs__whoami');
    expect(lists.bob.needsLink).toEqual([{ server: 'docs', start: 'POST /v1/mcp-servers/docs/oauth/start' }]);

    const usersBefore = fixture.seenUsers.length;
    expect((await link(t, bob, 'bob')).status).toBe(200);
    const b2 = await whoami(t, bob);
    expect(b2.body.result.content[0].text).toMatch(/^user=bob /);
    const a2 = await whoami(t, alice);
    expect(a2.body.result.content[0].text).toMatch(/^user=alice /);
    // every MCP request since bob linked carried either bob's token (his calls) or alice's (hers)
    const since = fixture.seenUsers.slice(usersBefore);
    expect(since).toContain('bob');
    expect(since.filter((user) => user !== 'bob' && user !== 'alice')).toEqual([]);

    const agentCall = await whoami(t, agent);
    expect(agentCall.body.result.error.details.reason).toBe('AUTH_REQUIRED');
  });

  it.skipIf(skip)('keeps tokens out of answers and logs', async () => {
    const answer = await whoami(t, alice);
    const text = JSON.stringify(answer.body);
    expect(text).toContain('user=alice');
    expect(fixture.issued.length).toBeGreaterThan(0);
    for (const value of fixture.issued) {
      expect(text).not.toContain(value);
      for (const line of t.logs) expect(line).not.toContain(value);
    }
  });

  it.skipIf(skip)('refuses a reused, forged or missing state and exchanges no code for it', async () => {
    const { callback } = await link(t, alice, 'alice');
    const exchanges = fixture.counts.codeExchanges;
    const reused = await t.api('GET', `${callback.pathname}${callback.search}`);
    expect(reused.status).toBe(400);
    expect(reused.body.error.reason).toBe('oauth_state_invalid');

    const started = await t.api('POST', '/v1/mcp-servers/docs/oauth/start', { key: alice });
    const forged = await authorizeAs(started.body.authorizationUrl, 'mallory');
    forged.searchParams.set('state', 'not-the-state-sent');
    const refused = await t.api('GET', `${forged.pathname}${forged.search}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.reason).toBe('oauth_state_invalid');
    const missing = await t.api('GET', '/v1/oauth/callback?code=abc');
    expect(missing.body.error.reason).toBe('oauth_state_invalid');
    expect(fixture.counts.codeExchanges).toBe(exchanges);
    // the abandoned login did not replace alice's link
    expect((await whoami(t, alice)).body.result.ok).toBe(true);
  });

  it.skipIf(skip)(
    'answers oauth_failed when the authorization server refused the login, keeping the link',
    async () => {
      const started = await t.api('POST', '/v1/mcp-servers/docs/oauth/start', { key: alice });
      const state = new URL(started.body.authorizationUrl).searchParams.get('state') ?? '';
      const refused = await t.api(
        'GET',
        `/v1/oauth/callback?state=${encodeURIComponent(state)}&error=access_denied`,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error.reason).toBe('oauth_failed');
      expect(refused.body.error.message).toContain('access_denied');
      expect((await whoami(t, alice)).body.result.content[0].text).toMatch(/^user=alice /);
    },
  );

  it.skipIf(skip)('refreshes an expired access token and keeps the same user', async () => {
    const refreshes = fixture.counts.refreshes;
    fixture.expireAccessTokens();
    const a = await whoami(t, alice);
    expect(a.body.result.content[0].text).toMatch(/^user=alice /);
    const b = await whoami(t, bob);
    expect(b.body.result.content[0].text).toMatch(/^user=bob /);
    expect(fixture.counts.refreshes).toBe(refreshes + 2);
  });

  it.skipIf(skip)(
    'unlinks a user: their next call needs a login again, the other user is untouched',
    async () => {
      const unlinked = await t.api('DELETE', '/v1/mcp-servers/docs/oauth', { key: bob });
      expect(unlinked.body).toEqual({ unlinked: true });
      const b = await whoami(t, bob);
      expect(b.body.result.error.details.reason).toBe('AUTH_REQUIRED');
      expect((await whoami(t, alice)).body.result.content[0].text).toMatch(/^user=alice /);
      const again = await t.api('DELETE', '/v1/mcp-servers/docs/oauth', { key: bob });
      expect(again.body).toEqual({ unlinked: false });
    },
  );

  it.skipIf(skip)('lists the tools an admin declared before any link; a call asks for the link', async () => {
    const put = await t.api('PUT', '/v1/mcp-servers/declared', {
      key: t.adminKey,
      body: {
        type: 'http',
        url: fixture.mcpUrl,
        auth: 'oauth-per-user',
        tools: [{ name: 'whoami', description: 'Says who the linked user is' }],
      },
    });
    expect(put.status).toBe(200);
    const listed = await t.api('GET', '/v1/tools', { key: bob });
    const declared = listed.body.tools.find((tool: { name: string }) => tool.name === 'declared__whoami');
    expect(declared).toEqual({
      name: 'declared__whoami',
      description: 'Says who the linked user is',
      inputSchema: { type: 'object' },
    });
    expect(listed.body.needsLink).toContainEqual({
      server: 'declared',
      start: 'POST /v1/mcp-servers/declared/oauth/start',
    });
    const call = await t.api('POST', '/v1/tools/declared__whoami/call', {
      key: bob,
      body: { arguments: {} },
    });
    expect(call.body.result.error.details).toMatchObject({ server: 'declared', reason: 'AUTH_REQUIRED' });
    const refusals = [
      { type: 'http', url: fixture.mcpUrl, tools: [{ name: 'whoami' }] },
      { type: 'stdio', command: 'node', tools: [{ name: 'whoami' }] },
      { type: 'http', url: fixture.mcpUrl, auth: 'oauth-per-user', tools: [{ name: 'a' }, { name: 'a' }] },
      {
        type: 'http',
        url: fixture.mcpUrl,
        auth: 'oauth-per-user',
        tools: [{ name: 'a', inputSchema: { type: 'string' } }],
      },
    ];
    for (const body of refusals) {
      const refused = await t.api('PUT', '/v1/mcp-servers/broken', { key: t.adminKey, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.reason).toBe('invalid_mcp_server');
      expect(refused.body.error.message).toContain('"tools"');
    }
    const bad = await t.api('PUT', '/v1/mcp-servers/broken', {
      key: t.adminKey,
      body: { type: 'http', url: fixture.mcpUrl, auth: 'oauth-per-user', tools: [{ name: 'has space' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reason).toBe('schema');
  });

  it.skipIf(skip)('stores the tokens sealed, one row per user, in no plain text', async () => {
    await t.server.close();
    const db = await openDatabase(
      t.databaseUrl ? { postgresUrl: t.databaseUrl } : { dataDir: join(t.stateDir, 'db') },
    );
    try {
      const rows = await db.query<{ user_id: string; record_sealed: string }>(
        'SELECT user_id, record_sealed FROM mcp_user_tokens ORDER BY user_id',
      );
      expect(rows.map((row) => row.user_id)).toEqual(['alice']);
      const dump = JSON.stringify(rows);
      for (const value of fixture.issued) expect(dump).not.toContain(value);
      const opened = JSON.parse(
        createCipher(Buffer.from(t.secretKey, 'base64')).open(rows[0]?.record_sealed ?? ''),
      );
      expect(fixture.issued).toContain(opened.tokens.access_token);
    } finally {
      await db.close();
    }
  });
});

describe('per-user OAuth timers', () => {
  it('refuses a state that expired before the browser came back', async () => {
    const fixture = await startOAuthFixture();
    const t = await startTestServer({ oauthLoginTtlMs: 1 });
    try {
      await t.api('PUT', '/v1/mcp-servers/docs', {
        key: t.adminKey,
        body: { type: 'http', url: fixture.mcpUrl, auth: 'oauth-per-user' },
      });
      const alice = await makeKey(t, t.adminKey, 'user', 'alice');
      const started = await t.api('POST', '/v1/mcp-servers/docs/oauth/start', { key: alice });
      const callback = await authorizeAs(started.body.authorizationUrl, 'alice');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const late = await t.api('GET', `${callback.pathname}${callback.search}`);
      expect(late.status).toBe(400);
      expect(late.body.error.reason).toBe('oauth_state_invalid');
      expect(fixture.counts.codeExchanges).toBe(0);
    } finally {
      await t.close();
      await fixture.close();
    }
  });

  it('closes a connection left idle and opens a new one for the next call', async () => {
    const fixture = await startOAuthFixture();
    const t = await startTestServer({ oauthIdleMs: 20 });
    try {
      await t.api('PUT', '/v1/mcp-servers/docs', {
        key: t.adminKey,
        body: { type: 'http', url: fixture.mcpUrl, auth: 'oauth-per-user' },
      });
      const alice = await makeKey(t, t.adminKey, 'user', 'alice');
      await grant(t, 'user', 'alice', ['docs__*']);
      expect((await link(t, alice, 'alice')).status).toBe(200);
      expect((await whoami(t, alice)).body.result.ok).toBe(true);
      const opened = fixture.counts.initializes;
      // the server runs in this process: its 20 ms idle timer fires before this 200 ms one
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await whoami(t, alice)).body.result.content[0].text).toMatch(/^user=alice /);
      expect(fixture.counts.initializes).toBe(opened + 1);
    } finally {
      await t.close();
      await fixture.close();
    }
  });
});
