import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OAuthFixture, authorizeAs, startOAuthFixture } from './helpers/oauth-fixture.js';
import { type TestServer, makeKey, startTestServer, storages } from './helpers/test-server.js';

describe.each(storages())("a user's account links on $kind", ({ kind, skip }) => {
  let t: TestServer;
  let fixture: OAuthFixture;
  let alice: string;
  let bob: string;
  let agent: string;

  beforeAll(async () => {
    if (skip) return;
    fixture = await startOAuthFixture();
    t = await startTestServer({ storage: kind });
    for (const [name, body] of [
      ['docs', { type: 'http', url: fixture.mcpUrl, auth: 'oauth-per-user' }],
      ['wiki', { type: 'http', url: fixture.mcpUrl, auth: 'oauth-per-user' }],
      ['plain', { type: 'http', url: fixture.mcpUrl }],
    ] as const) {
      const put = await t.api('PUT', `/v1/mcp-servers/${name}`, { key: t.adminKey, body });
      if (put.status !== 200) throw new Error(`server refused: ${JSON.stringify(put.body)}`);
    }
    alice = await makeKey(t, t.adminKey, 'user', 'alice');
    bob = await makeKey(t, t.adminKey, 'user', 'bob');
    agent = await makeKey(t, t.adminKey, 'agent', 'coder');
  });
  afterAll(async () => {
    await t?.close();
    await fixture?.close();
  });

  it.skipIf(skip)('lists only the per-user servers, each not linked before a login', async () => {
    const links = await t.api('GET', '/v1/oauth/links', { key: alice });
    expect(links.status).toBe(200);
    expect(links.body.links).toEqual([
      { server: 'docs', linked: false },
      { server: 'wiki', linked: false },
    ]);
  });

  it.skipIf(skip)("shows the calling user's own links only, and forgets one on unlink", async () => {
    const started = await t.api('POST', '/v1/mcp-servers/docs/oauth/start', { key: alice });
    const callback = await authorizeAs(started.body.authorizationUrl, 'alice');
    expect((await fetch(callback)).status).toBe(200);
    expect((await t.api('GET', '/v1/oauth/links', { key: alice })).body.links).toEqual([
      { server: 'docs', linked: true },
      { server: 'wiki', linked: false },
    ]);
    expect((await t.api('GET', '/v1/oauth/links', { key: bob })).body.links).toEqual([
      { server: 'docs', linked: false },
      { server: 'wiki', linked: false },
    ]);
    expect((await t.api('DELETE', '/v1/mcp-servers/docs/oauth', { key: alice })).body.unlinked).toBe(true);
    const after = await t.api('GET', '/v1/oauth/links', { key: alice });
    expect(after.body.links[0]).toEqual({ server: 'docs', linked: false });
  });

  it.skipIf(skip)('refuses no key, a wrong key, and admin and agent keys with user_only', async () => {
    expect((await t.api('GET', '/v1/oauth/links')).status).toBe(401);
    expect((await t.api('GET', '/v1/oauth/links', { key: `${alice}x` })).status).toBe(401);
    for (const key of [t.adminKey, agent]) {
      const refused = await t.api('GET', '/v1/oauth/links', { key });
      expect(refused.status).toBe(403);
      expect(refused.body.error.reason).toBe('user_only');
      expect(refused.body.error.message).toContain('use a user key');
    }
  });

  it.skipIf(skip)('sends a login begun from the console back to the console', async () => {
    const started = await t.api('POST', '/v1/mcp-servers/wiki/oauth/start?return=console', { key: bob });
    expect(started.status).toBe(200);
    const callback = await authorizeAs(started.body.authorizationUrl, 'bob');
    const back = await fetch(callback, { redirect: 'manual' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/console?linked=wiki');
    expect((await t.api('GET', '/v1/oauth/links', { key: bob })).body.links[1]).toEqual({
      server: 'wiki',
      linked: true,
    });
  });

  it.skipIf(skip)('sends a failed console login back to the console with the reason', async () => {
    const started = await t.api('POST', '/v1/mcp-servers/docs/oauth/start?return=console', { key: bob });
    const state = new URL(started.body.authorizationUrl).searchParams.get('state') ?? '';
    const back = await fetch(
      `${t.url}/v1/oauth/callback?state=${encodeURIComponent(state)}&error=access_denied`,
      { redirect: 'manual' },
    );
    expect(back.status).toBe(303);
    const location = new URL(back.headers.get('location') ?? '', t.url);
    expect(location.pathname).toBe('/console');
    expect(location.searchParams.get('link_failed')).toContain('access_denied');
    const unknown = await t.api('POST', '/v1/mcp-servers/docs/oauth/start?return=elsewhere', { key: bob });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.reason).toBe('schema');
  });

  it.skipIf(skip)('documents the links route and the console return in /openapi.json', async () => {
    const doc = (await t.api('GET', '/openapi.json')).body;
    expect(doc.paths['/v1/oauth/links'].get.security).toEqual([{ bearer: [] }]);
    expect(doc.components.schemas.AccountLink.required).toEqual(['server', 'linked']);
    const start = doc.paths['/v1/mcp-servers/{name}/oauth/start'].post;
    expect(start.parameters.find((p: { name: string }) => p.name === 'return').schema.enum).toEqual([
      'console',
    ]);
    expect(doc.paths['/v1/oauth/callback'].get.responses['303']).toBeDefined();
  });
});
