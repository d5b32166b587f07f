import { createToolContext } from '@toolplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type McpProvider,
  beginMcpLogin,
  completeMcpLogin,
  createMcpAuth,
  createMcpProvider,
  createMemoryTokenStore,
} from '../src/index.js';
import { type OAuthFixture, followAuthorization, startOAuthFixture } from './helpers/oauth-fixture.js';

let fixture: OAuthFixture | undefined;
let provider: McpProvider | undefined;
afterEach(async () => {
  await provider?.close?.();
  provider = undefined;
  await fixture?.close();
  fixture = undefined;
});

const redirectUrl = 'https://tools.example.test/v1/oauth/callback';

describe('a login in two steps', () => {
  it('completes in another process from the pending login as JSON, and the tokens work', async () => {
    fixture = await startOAuthFixture();
    const started = createMcpAuth({ store: createMemoryTokenStore() });
    const start = await beginMcpLogin({
      auth: started,
      server: 'docs',
      serverUrl: fixture.mcpUrl,
      redirectUrl,
    });
    if (start.status !== 'redirect') throw new Error(`expected a redirect, got ${start.status}`);
    expect(start.authorizationUrl.searchParams.get('state')).toBe(start.pending.state);
    expect(start.authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(start.pending.record.client?.client_id).toBeTruthy();
    expect(start.pending.record.tokens).toBeUndefined();
    expect(fixture.counts.codeExchanges).toBe(0);

    // what a server keeps in its database between the two requests
    const kept = JSON.parse(JSON.stringify(start.pending));
    const redirect = await followAuthorization(start.authorizationUrl);
    const elsewhere = createMemoryTokenStore();
    const completed = createMcpAuth({ store: elsewhere });
    await completeMcpLogin({ auth: completed, pending: kept, redirect });
    expect(fixture.counts.registrations).toBe(1);
    expect(fixture.counts.codeExchanges).toBe(1);
    const record = await elsewhere.read('docs');
    expect(record?.tokens?.access_token).toBeTruthy();
    expect(record?.client?.client_id).toBe(start.pending.record.client?.client_id);

    provider = createMcpProvider('docs', { type: 'http', url: fixture.mcpUrl }, { auth: completed });
    await provider.start?.(AbortSignal.timeout(20_000));
    const whoami = await provider.execute('whoami', {}, createToolContext());
    expect(whoami.ok && whoami.content[0]).toEqual({
      type: 'text',
      text: `Bearer ${record?.tokens?.access_token}`,
    });
  });

  it('refuses a redirect with another state or an error, exchanging no code', async () => {
    fixture = await startOAuthFixture();
    const auth = createMcpAuth({ store: createMemoryTokenStore() });
    const start = await beginMcpLogin({ auth, server: 'docs', serverUrl: fixture.mcpUrl, redirectUrl });
    if (start.status !== 'redirect') throw new Error(`expected a redirect, got ${start.status}`);
    const redirect = await followAuthorization(start.authorizationUrl);
    await expect(
      completeMcpLogin({ auth, pending: start.pending, redirect: { ...redirect, state: 'forged' } }),
    ).rejects.toMatchObject({ code: 'DENIED', details: { reason: 'STATE_MISMATCH' } });
    await expect(
      completeMcpLogin({
        auth,
        pending: start.pending,
        redirect: { state: start.pending.state, error: 'access_denied' },
      }),
    ).rejects.toMatchObject({ code: 'DENIED', details: { reason: 'access_denied' } });
    expect(fixture.counts.codeExchanges).toBe(0);
  });

  it('answers not-required for a server that asks for no token', async () => {
    fixture = await startOAuthFixture();
    const auth = createMcpAuth({ store: createMemoryTokenStore() });
    // the metadata document answers without a challenge, as a server without OAuth does
    const serverUrl = `${fixture.origin}/.well-known/oauth-authorization-server`;
    const start = await beginMcpLogin({ auth, server: 'open', serverUrl, redirectUrl });
    expect(start).toEqual({ status: 'not-required' });
  });
});
