import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRestProvider } from '../../src/index.js';
import { failure, getTool, thrown } from '../helpers/bad-input.js';
import { fakeSecret, oauth, useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, provider } = useCleanups();

describe('OAuth2 token endpoint answers', () => {
  it('honours expires_in sent as a numeric string', async () => {
    let issued = 0;
    const tokens = await server((_request, response) => {
      issued++;
      // some servers send the lifetime as a string; "0": expired at once, so never reused
      sendJson(response, 200, { access_token: `tok-${issued}`, expires_in: '0' });
    });
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    for (let call = 0; call < 2; call++)
      expect((await rest.execute('me', {}, createToolContext())).ok).toBe(true);
    // the string is not ignored for the hour-long default: the second call gets a new token
    expect(api.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer tok-1',
      'Bearer tok-2',
    ]);
  });

  it('drops a cached token the API refuses with 401, whatever its expires_in said', async () => {
    for (const expiresIn of [undefined, 1e308]) {
      let issued = 0;
      const tokens = await server((_request, response) => {
        issued++;
        sendJson(response, 200, {
          access_token: `tok-${issued}`,
          ...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
        });
      });
      // the API revoked tok-1 (or it lived shorter than the one-hour default)
      const api = await server((request, response) =>
        request.headers.authorization === 'Bearer tok-1'
          ? sendJson(response, 401, { error: 'invalid_token' })
          : sendJson(response, 200, { ok: true }),
      );
      const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
      const refused = failure(await rest.execute('me', {}, createToolContext()));
      expect(refused.error.code).toBe('DENIED');
      // not reused until it expires (an hour, or for ever)
      const again = await rest.execute('me', {}, createToolContext());
      expect(again.ok, String(expiresIn)).toBe(true);
      expect(api.requests.map((request) => request.headers.authorization)).toEqual([
        'Bearer tok-1',
        'Bearer tok-2',
      ]);
      expect(tokens.requests).toHaveLength(2);
    }
  });

  it('keeps a bounded number of past tokens for the scrubber when every call needs a new one', async () => {
    let issued = 0;
    const tokens = await server((_request, response) => {
      issued++;
      // expires_in 0: each call fetches a fresh token
      sendJson(response, 200, { access_token: `tok-${issued}-${'x'.repeat(100)}`, expires_in: 0 });
    });
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    for (let call = 0; call < 300; call++)
      expect((await rest.execute('me', {}, createToolContext())).ok).toBe(true);
    expect(tokens.requests).toHaveLength(300);
    const held = rest.secretValues().filter((value) => value.startsWith('tok-'));
    // holding every token ever issued for the provider's life would grow memory with each call
    expect(held.length).toBeLessThanOrEqual(256);
    expect(held).toContain(`tok-300-${'x'.repeat(100)}`);
  });

  it('refuses a token answer that is JSON null, like any answer without an access_token', async () => {
    const tokens = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('null');
    });
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    const result = failure(await rest.execute('me', {}, createToolContext()));
    // not EXECUTION_FAILED "the request to GET ... failed: Cannot read properties of null"
    expect(result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(result.error.message).toContain('OAuth2 token endpoint answered without an access_token');
    expect(api.requests).toHaveLength(0);
  });

  it('gives RATE_LIMITED for a token endpoint answering 429, and names it when its answer breaks off', async () => {
    let mode: 'limited' | 'cut' = 'limited';
    const tokens = await server((_request, response) => {
      if (mode === 'limited') return sendJson(response, 429, { error: 'slow_down' }, { 'retry-after': '7' });
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"access_');
      setTimeout(() => response.destroy(), 20);
    });
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    const limited = failure(await rest.execute('me', {}, createToolContext()));
    // not DENIED (not retryable) telling to check the client id and secret
    expect(limited.error.code).toBe('RATE_LIMITED');
    expect(limited.error.details).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    expect(limited.error.message).toContain('OAuth2 token endpoint answered HTTP 429');
    expect(limited.error.message).not.toContain('check the client id');
    mode = 'cut';
    // a new provider: this one waits the 7 s the endpoint asked for (tokens/requests.test.ts)
    const fresh = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    const cut = failure(await fresh.execute('me', {}, createToolContext()));
    // the message blames the token endpoint, not the API ("GET <api>/me is unreachable"), a request never sent
    expect(cut.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(cut.error.message).toContain(`OAuth2 token endpoint ${tokens.origin}/token broke off its answer`);
    expect(api.requests).toHaveLength(0);
  });

  it('does not follow a token endpoint redirect, and says so', async () => {
    const secret = fakeSecret('secret');
    const elsewhere = await server((_request, response) => sendJson(response, 200, { access_token: 'x' }));
    const tokens = await server((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.origin}/token` });
      response.end();
    });
    const api = await server();
    const rest = provider({
      me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`, secret) }),
    });
    const result = failure(await rest.execute('me', {}, createToolContext()));
    expect(result.error.code).toBe('DENIED');
    // not "check the client id, secret and scopes"
    expect(result.error.message).toContain(`redirected to ${elsewhere.origin}/token`);
    expect(result.error.message).toContain('not followed');
    expect(elsewhere.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(0);
    expect(tokens.requests).toHaveLength(1);
  });
});

describe('OAuth2 tokenUrl in a tool config', () => {
  it('must be an absolute http(s) URL without user info, checked when the provider is created', async () => {
    const api = await server();
    for (const tokenUrl of [
      '/oauth/token',
      'ftp://auth.example.test/token',
      'https://id:pw@auth.example.test/t',
    ]) {
      // refused at creation, not every call failing with EXECUTION_FAILED "Invalid URL"
      const error = thrown(() =>
        createRestProvider({
          namespace: 't',
          tools: { me: getTool(`${api.origin}/me`, { auth: oauth(tokenUrl) }) },
        }),
      );
      expect(error.code, tokenUrl).toBe('CONFIG_INVALID');
      expect(error.message, tokenUrl).toContain(
        'auth.tokenUrl must be an absolute http(s) URL without user info',
      );
      expect(error.message).not.toContain('pw@');
    }
    // from the environment: checked when the call reads it
    const rest = provider(
      { me: getTool(`${api.origin}/me`, { auth: oauth('${TOKEN_URL}') }) },
      { env: { TOKEN_URL: '/oauth/token' } },
    );
    const call = failure(await rest.execute('me', {}, createToolContext()));
    expect(call.error.code).toBe('CONFIG_INVALID');
    expect(call.error.message).toContain('tokenUrl must be an absolute http(s) URL');
    expect(api.requests).toHaveLength(0);
  });
});
