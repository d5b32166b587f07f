import { createToolContext } from '@toolplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type McpProvider,
  createMcpAuth,
  createMcpProvider,
  createMemoryTokenStore,
  isAuthRequired,
  mcpAuthStatus,
} from '../src/index.js';
import { type OAuthFixture, startOAuthFixture } from './helpers/oauth-fixture.js';
import { loginAsBrowser } from './helpers/oauth-login.js';

let fixture: OAuthFixture | undefined;
let provider: McpProvider | undefined;
afterEach(async () => {
  await provider?.close?.();
  provider = undefined;
  await fixture?.close();
  fixture = undefined;
});

const whoami = async (p: McpProvider): Promise<string> => {
  const result = await p.execute('whoami', {}, createToolContext());
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return (result.content[0] as { text: string }).text;
};

const startError = (p: McpProvider): Promise<unknown> =>
  (p.start?.(AbortSignal.timeout(20_000)) ?? Promise.resolve()).then(
    () => undefined,
    (failure: unknown) => failure,
  );

describe('calls to a server behind OAuth', () => {
  it('without a login, starting fails at once with AUTH_REQUIRED and the login command, registering nothing', async () => {
    fixture = await startOAuthFixture();
    const auth = createMcpAuth({ store: createMemoryTokenStore() });
    expect(await mcpAuthStatus(auth, 'docs', fixture.mcpUrl)).toEqual({
      state: 'login-required',
      command: 'toolplane mcp login docs',
    });
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    const error = await provider.start?.(AbortSignal.timeout(20_000)).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isAuthRequired(error)).toBe(true);
    expect(String((error as Error).message)).toContain('toolplane mcp login docs');
    expect(fixture.counts.registrations).toBe(0);
    expect(fixture.counts.authorizations).toBe(0);
    const call = await provider.execute('whoami', {}, createToolContext());
    expect(call.ok).toBe(false);
    expect(!call.ok && call.error.message).toContain('toolplane mcp login docs');
  });

  it('refreshes a token about to expire before the session opens', async () => {
    fixture = await startOAuthFixture({ expiresIn: 30 });
    const store = createMemoryTokenStore();
    const auth = createMcpAuth({ store, refreshLeewayMs: 120_000 });
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl);
    const first = (await store.read('docs'))?.tokens?.access_token;
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    await provider.start?.(AbortSignal.timeout(20_000));
    expect(fixture.counts.refreshes).toBe(1);
    const second = (await store.read('docs'))?.tokens?.access_token;
    expect(second).not.toBe(first);
    expect(await whoami(provider)).toBe(`Bearer ${second}`);
  });

  it('on a 401 refreshes and retries the call with the new token', async () => {
    fixture = await startOAuthFixture();
    const store = createMemoryTokenStore();
    const auth = createMcpAuth({ store });
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl);
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    await provider.start?.(AbortSignal.timeout(20_000));
    fixture.expireAccessTokens();
    const answer = await whoami(provider);
    expect(fixture.counts.refreshes).toBe(1);
    expect(answer).toBe(`Bearer ${(await store.read('docs'))?.tokens?.access_token}`);
  });

  it('after revocation (401, refused refresh) a call fails with AUTH_REQUIRED', async () => {
    fixture = await startOAuthFixture();
    const store = createMemoryTokenStore();
    const auth = createMcpAuth({ store });
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl);
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    await provider.start?.(AbortSignal.timeout(20_000));
    fixture.revokeAll();
    const call = await provider.execute('whoami', {}, createToolContext());
    expect(call.ok).toBe(false);
    expect(!call.ok && isAuthRequired(call.error)).toBe(true);
    expect(!call.ok && call.error.message).toContain('toolplane mcp login docs');
    expect(fixture.counts.refusedRefreshes).toBe(1);
    expect(fixture.counts.authorizations).toBe(1);
  });

  it('a static Authorization header turns OAuth off for that server', async () => {
    fixture = await startOAuthFixture();
    const auth = createMcpAuth({ store: createMemoryTokenStore() });
    provider = createMcpProvider(
      'docs',
      { type: 'http', url: fixture.mcpUrl, headers: { Authorization: 'Bearer not-a-real-token' } },
      { auth },
    );
    const error = await provider.start?.(AbortSignal.timeout(20_000)).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isAuthRequired(error)).toBe(false);
    expect(String(error)).toContain('401');
  });

  it('a token without the scope a server steps up to fails bounded; a login with that scope then works', async () => {
    fixture = await startOAuthFixture({ requiredScope: 'mcp:admin' });
    const store = createMemoryTokenStore();
    const auth = createMcpAuth({ store });
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl);
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    const error = await provider.start?.(AbortSignal.timeout(20_000)).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isAuthRequired(error)).toBe(true);
    expect(String(error)).toMatch(/scope/);
    expect(fixture.counts.mcpCalls).toBe(0);
    await provider.close?.();
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl, { scope: 'mcp:tools mcp:admin' });
    expect(fixture.lastAuthorization.scope).toBe('mcp:tools mcp:admin');
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    await provider.start?.(AbortSignal.timeout(20_000));
    expect(await whoami(provider)).toBe(`Bearer ${(await store.read('docs'))?.tokens?.access_token}`);
  });

  it('a refused refresh before the session opens fails the start with AUTH_REQUIRED and the login command', async () => {
    fixture = await startOAuthFixture({ expiresIn: 30 });
    const auth = createMcpAuth({ store: createMemoryTokenStore(), refreshLeewayMs: 120_000 });
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl);
    fixture.revokeAll();
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    const error = await startError(provider);
    expect(isAuthRequired(error)).toBe(true);
    expect(isAuthRequired(error) && error.details.command).toBe('toolplane mcp login docs');
    expect(fixture.counts.refusedRefreshes).toBe(1);
    expect(fixture.counts.mcpCalls).toBe(0);
  });

  it('a refresh that never answers fails the start within the request timeout', async () => {
    fixture = await startOAuthFixture({ expiresIn: 30, refreshFault: 'hang' });
    const auth = createMcpAuth({
      store: createMemoryTokenStore(),
      refreshLeewayMs: 120_000,
      requestTimeoutMs: 300,
    });
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl);
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    const error = await startError(provider);
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(String((error as Error).message)).toContain(`${fixture.origin}/token got no answer within 300 ms`);
    expect(isAuthRequired(error)).toBe(false);
    expect(fixture.counts.mcpCalls).toBe(0);
  });

  it('a refresh answered with a body that is not JSON fails the call with an error naming the token endpoint', async () => {
    fixture = await startOAuthFixture({ refreshFault: 'garbage' });
    const auth = createMcpAuth({ store: createMemoryTokenStore() });
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl);
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    await provider.start?.(AbortSignal.timeout(20_000));
    fixture.expireAccessTokens();
    const call = await provider.execute('whoami', {}, createToolContext());
    expect(call.ok).toBe(false);
    expect(!call.ok && call.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(!call.ok && call.error.message).toContain(`token endpoint ${fixture.origin}/token answered 200`);
    expect(!call.ok && isAuthRequired(call.error)).toBe(false);
    expect(fixture.counts.authorizations).toBe(1);
  });

  it('a call that meets insufficient_scope fails with AUTH_REQUIRED naming the wider scope, which the next login asks for', async () => {
    fixture = await startOAuthFixture({ requiredScope: 'mcp:admin', requiredScopeFor: 'tools/call' });
    const store = createMemoryTokenStore();
    const auth = createMcpAuth({ store });
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl);
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    await provider.start?.(AbortSignal.timeout(20_000));
    const call = await provider.execute('whoami', {}, createToolContext());
    if (call.ok || !isAuthRequired(call.error)) throw new Error(`not AUTH_REQUIRED: ${JSON.stringify(call)}`);
    expect(call.error.details).toMatchObject({
      command: 'toolplane mcp login docs',
      scope: 'mcp:tools mcp:admin',
    });
    await provider.close?.();
    await loginAsBrowser(auth, 'docs', fixture.mcpUrl);
    expect(fixture.counts.authorizations).toBe(2);
    expect(fixture.lastAuthorization.scope).toBe('mcp:tools mcp:admin');
    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth });
    await provider.start?.(AbortSignal.timeout(20_000));
    expect(await whoami(provider)).toBe(`Bearer ${(await store.read('docs'))?.tokens?.access_token}`);
  });
});
