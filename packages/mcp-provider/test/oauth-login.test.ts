import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type McpProvider,
  createFileTokenStore,
  createMcpAuth,
  createMcpProvider,
  loginMcpServer,
  mcpAuthStatus,
} from '../src/index.js';
import { type OAuthFixture, startOAuthFixture } from './helpers/oauth-fixture.js';
import { loginAsBrowser } from './helpers/oauth-login.js';

let fixture: OAuthFixture | undefined;
let provider: McpProvider | undefined;
let dir: string | undefined;
afterEach(async () => {
  await provider?.close?.();
  provider = undefined;
  await fixture?.close();
  fixture = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function fileAuth() {
  dir = await mkdtemp(join(tmpdir(), 'tp-oauth-'));
  const store = createFileTokenStore({ path: join(dir, 'toolplane', 'mcp-tokens.json') });
  return { store, auth: createMcpAuth({ store }) };
}

describe('logging in to a remote MCP server', () => {
  it('discovers, registers, sends PKCE, resource and scope, stores tokens that calls then use', async () => {
    fixture = await startOAuthFixture();
    const { store, auth } = await fileAuth();
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl);
    expect(fixture.counts.registrations).toBe(1);
    expect(fixture.counts.codeExchanges).toBe(1);
    expect(fixture.lastAuthorization).toEqual({
      resource: fixture.mcpUrl,
      scope: 'mcp:tools',
      challengeMethod: 'S256',
    });
    const record = await store.read('docs');
    expect(record?.tokens?.access_token).toBeTruthy();
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);

    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    await provider.start?.(AbortSignal.timeout(20_000));
    const whoami = await provider.execute('whoami', {}, createToolContext());
    expect(whoami.ok && whoami.content[0]).toEqual({
      type: 'text',
      text: `Bearer ${record?.tokens?.access_token}`,
    });
    expect(provider.secretValues?.()).toEqual(
      expect.arrayContaining([record?.tokens?.access_token, record?.tokens?.refresh_token]),
    );
    expect(await mcpAuthStatus(auth, 'docs', fixture.mcpUrl)).toMatchObject({ state: 'logged-in' });
  });

  it('uses a pre-registered confidential client with client_secret_basic and registers nothing', async () => {
    const secret = `s_${Math.random().toString(36).slice(2)}`;
    fixture = await startOAuthFixture({ confidentialClient: { id: 'tp-cli', secret } });
    const { store, auth } = await fileAuth();
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl, {
      client: { client_id: 'tp-cli', client_secret: secret },
    });
    expect(fixture.counts.registrations).toBe(0);
    expect(fixture.counts.codeExchanges).toBe(1);
    expect((await store.read('docs'))?.preRegistered).toBe(true);
    expect(auth.secretValues('docs')).toContain(secret);
  });

  it('refuses a redirect whose state is not the one sent, and stores no token', async () => {
    fixture = await startOAuthFixture({ wrongState: 'forged-state-value' });
    const { store, auth } = await fileAuth();
    await expect(loginAsBrowser(auth, 'docs', fixture.mcpUrl)).rejects.toMatchObject({
      code: 'DENIED',
      details: { reason: 'STATE_MISMATCH' },
    });
    expect(fixture.counts.codeExchanges).toBe(0);
    expect((await store.read('docs'))?.tokens).toBeUndefined();
  });

  it('refuses resource metadata that names another origin before any authorization', async () => {
    fixture = await startOAuthFixture({ resourceOverride: 'https://elsewhere.example/mcp' });
    const { auth } = await fileAuth();
    await expect(loginAsBrowser(auth, 'docs', fixture.mcpUrl)).rejects.toThrow(/resource|match/i);
    expect(fixture.counts.authorizations).toBe(0);
    expect(fixture.counts.registrations).toBe(0);
  });

  it('a token endpoint that never answers fails the login with TIMEOUT', async () => {
    fixture = await startOAuthFixture({ tokenHangs: true });
    dir = await mkdtemp(join(tmpdir(), 'tp-oauth-'));
    const store = createFileTokenStore({ path: join(dir, 'tokens.json') });
    const auth = createMcpAuth({ store, requestTimeoutMs: 300 });
    await expect(loginAsBrowser(auth, 'docs', fixture.mcpUrl)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect((await store.read('docs'))?.tokens).toBeUndefined();
  });

  it('a token endpoint that answers garbage fails the login with PROVIDER_UNAVAILABLE naming it, storing no token', async () => {
    fixture = await startOAuthFixture({ tokenGarbage: true });
    const { store, auth } = await fileAuth();
    const error = await loginAsBrowser(auth, 'docs', fixture.mcpUrl).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(String((error as Error).message)).toContain(`token endpoint ${fixture.origin}/token answered 200`);
    expect(String((error as Error).message)).toContain('not a token response');
    expect((await store.read('docs'))?.tokens).toBeUndefined();
  });

  it('a token endpoint that answers 503 fails the login with PROVIDER_UNAVAILABLE, not a login prompt', async () => {
    fixture = await startOAuthFixture({ tokenStatus: 503 });
    const { store, auth } = await fileAuth();
    const error = await loginAsBrowser(auth, 'docs', fixture.mcpUrl).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    expect(String((error as Error).message)).toContain(`token endpoint ${fixture.origin}/token answered 503`);
    expect((await store.read('docs'))?.tokens).toBeUndefined();
  });

  it('says a server that answers without a token needs no login', async () => {
    fixture = await startOAuthFixture();
    const { auth } = await fileAuth();
    const result = await loginMcpServer({
      auth,
      server: 'open',
      serverUrl: `${fixture.origin}/.well-known/oauth-authorization-server`,
      redirectUrl: 'http://127.0.0.1:1/callback',
      onAuthorizationUrl: () => undefined,
      waitForRedirect: async () => ({}),
    });
    expect(result.required).toBe(false);
  });
});
