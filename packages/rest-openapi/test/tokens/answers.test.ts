import { gzipSync } from 'node:zlib';
import { createToolContext } from '@toolplane/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, getTool } from '../helpers/bad-input.js';
import { fakeSecret, oauth, useCleanups } from '../helpers/fixtures.js';
import { issuingTokens } from '../helpers/issuing.js';
import { sendJson } from '../helpers/loopback.js';

const cleanups = useCleanups();
const { server, provider } = cleanups;

afterEach(() => {
  vi.useRealTimers();
});

describe('OAuth2 token_type', () => {
  it('sends a token whose type is Bearer in any case, or not given', async () => {
    for (const tokenType of [undefined, 'Bearer', 'bearer', 'BEARER']) {
      const tokens = await server((_request, response) =>
        sendJson(response, 200, {
          access_token: 'tok-1',
          expires_in: 3600,
          ...(tokenType === undefined ? {} : { token_type: tokenType }),
        }),
      );
      const api = await server();
      const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
      expect((await rest.execute('me', {}, createToolContext())).ok, String(tokenType)).toBe(true);
      expect(api.requests.map((request) => request.headers.authorization)).toEqual(['Bearer tok-1']);
    }
  });

  it('refuses a token of another type instead of sending it as a bearer token', async () => {
    for (const tokenType of ['MAC', 'DPoP', 'N_A', 'bearer2', 42]) {
      const token = fakeSecret('tok');
      const tokens = await server((_request, response) =>
        sendJson(response, 200, { access_token: token, token_type: tokenType, expires_in: 3600 }),
      );
      const api = await server();
      const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
      for (let call = 0; call < 2; call++) {
        const result = failure(await rest.execute('me', {}, createToolContext()));
        // not sent as "Authorization: Bearer <token>", which the API cannot accept (a DPoP or
        // MAC token needs a proof the client never made)
        expect(result.error.code, String(tokenType)).toBe('CONFIG_INVALID');
        expect(result.error.retryable).toBe(false);
        expect(result.error.message).toContain(
          `OAuth2 token endpoint ${tokens.origin}/token issued a token of type ${JSON.stringify(tokenType)}`,
        );
        expect(result.error.message).toContain('only Bearer tokens are supported');
        expect(result.error.message).not.toContain(token);
      }
      expect(api.requests).toHaveLength(0);
      // not cached: each call asks once, so a fixed client registration is picked up
      expect(tokens.requests).toHaveLength(2);
    }
  });

  it('keeps a long token_type out of the message', async () => {
    const tokens = await server((_request, response) =>
      sendJson(response, 200, { access_token: 'tok-1', token_type: `X${'y'.repeat(5000)}` }),
    );
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    const result = failure(await rest.execute('me', {}, createToolContext()));
    expect(result.error.code).toBe('CONFIG_INVALID');
    expect(result.error.message.length).toBeLessThan(600);
    expect(api.requests).toHaveLength(0);
  });
});

describe('OAuth2 token lifetimes', () => {
  it('reuses a short-lived token while it is young instead of asking for one on every call', async () => {
    const { tokens, call, sent } = await issuingTokens(cleanups, 20);
    for (let index = 0; index < 5; index++) await call();
    // a token living 30 s or less is used (the 30 s renewal margin does not eat its whole
    // life), so a loop of calls does not ask the token endpoint every time
    expect(tokens.requests).toHaveLength(1);
    expect(sent()).toEqual(Array(5).fill('Bearer tok-1'));
  });

  it('does not reuse a token past its expires_in, and asks once per call for expires_in 0', async () => {
    // only the monotonic clock (performance.now) is faked and moved on: no real wait
    vi.useFakeTimers({ toFake: ['performance'] });
    const short = await issuingTokens(cleanups, 1);
    await short.call();
    await short.call();
    vi.advanceTimersByTime(1100);
    await short.call();
    // reused while young (half its one-second life), asked for anew once that life has passed
    expect(short.sent()).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
    expect(short.tokens.requests).toHaveLength(2);
    const zero = await issuingTokens(cleanups, 0);
    for (let index = 0; index < 3; index++) await zero.call();
    // born expired: used once, right away, never cached; one token request per call, no more
    expect(zero.tokens.requests).toHaveLength(3);
    expect(zero.sent()).toEqual(['Bearer tok-1', 'Bearer tok-2', 'Bearer tok-3']);
  });

  it('takes a negative expires_in, number or string, as already expired', async () => {
    for (const expiresIn of [-5, '-5', ' -5 ']) {
      const { tokens, call, sent } = await issuingTokens(cleanups, expiresIn);
      await call();
      await call();
      // "-5" does not fall back to the one-hour default
      expect(sent(), JSON.stringify(expiresIn)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
      expect(tokens.requests).toHaveLength(2);
    }
  });

  it('uses a token granted a narrower scope than asked, and does not ask again when the API says 403', async () => {
    let issued = 0;
    const tokens = await server((_request, response) => {
      issued++;
      sendJson(response, 200, {
        access_token: `tok-${issued}`,
        token_type: 'Bearer',
        scope: 'read',
        expires_in: 3600,
      });
    });
    const api = await server((_request, response) =>
      sendJson(response, 403, { error: 'insufficient_scope', scope: 'read write' }),
    );
    const rest = provider({
      me: getTool(`${api.origin}/me`, {
        auth: { ...oauth(`${tokens.origin}/token`), scopes: ['read', 'write'] },
      }),
    });
    for (let call = 0; call < 3; call++) {
      const result = failure(await rest.execute('me', {}, createToolContext()));
      expect(result.error.code).toBe('DENIED');
      expect(result.error.message).toContain('insufficient_scope');
    }
    // the grant is the authorization server's decision: asking again would get the same scope,
    // so the token is kept (only a 401 drops it) and the endpoint is asked once
    expect(tokens.requests).toHaveLength(1);
    expect(new URLSearchParams(tokens.requests[0]?.body).get('scope')).toBe('read write');
    expect(api.requests.map((request) => request.headers.authorization)).toEqual(
      Array(3).fill('Bearer tok-1'),
    );
  });
});

describe('OAuth2 token errors in a 200 answer', () => {
  it('reads an OAuth2 error sent with HTTP 200 as the refusal it is', async () => {
    for (const [error, code] of [
      ['invalid_client', 'DENIED'],
      ['invalid_scope', 'DENIED'],
      ['temporarily_unavailable', 'PROVIDER_UNAVAILABLE'],
    ] as const) {
      // some servers (GitHub's token exchange among them) answer errors with 200
      const tokens = await server((_request, response) =>
        sendJson(response, 200, { error, error_description: `said ${error}` }),
      );
      const api = await server();
      const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
      const result = failure(await rest.execute('me', {}, createToolContext()));
      // not PROVIDER_UNAVAILABLE (retryable) "answered without an access_token", dropping what the server said
      expect(result.error.code, error).toBe(code);
      expect(result.error.message).toContain(
        `OAuth2 token endpoint ${tokens.origin}/token answered error "${error}": said ${error}`,
      );
      expect(api.requests).toHaveLength(0);
    }
  });
});

describe('OAuth2 token answers as bytes', () => {
  it('reads a token answer that is compressed or starts with a byte order mark, like an API answer', async () => {
    const json = JSON.stringify({ access_token: 'tok-1', token_type: 'Bearer', expires_in: 3600 });
    const bodies: Array<[Buffer, Record<string, string>]> = [
      [gzipSync(json), { 'content-encoding': 'gzip' }],
      [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]), {}],
    ];
    for (const [index, [body, headers]] of bodies.entries()) {
      const tokens = await server((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', ...headers });
        response.end(body);
      });
      const api = await server();
      const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
      // not PROVIDER_UNAVAILABLE "did not answer JSON"
      const result = await rest.execute('me', {}, createToolContext());
      expect(result.ok, String(index)).toBe(true);
      expect(api.requests.map((request) => request.headers.authorization)).toEqual(['Bearer tok-1']);
    }
  });

  it('refuses a compressed token answer that does not decode or expands past 64 KiB', async () => {
    const huge = JSON.stringify({ access_token: 'tok-1', padding: 'x'.repeat(200_000) });
    for (const body of [Buffer.from('not gzip at all'), gzipSync(huge)]) {
      const tokens = await server((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(body);
      });
      const api = await server();
      const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
      const result = failure(await rest.execute('me', {}, createToolContext()));
      expect(result.error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(result.error.message).toMatch(/OAuth2 token endpoint .*(does not decode|more than 64 KiB)/);
      expect(api.requests).toHaveLength(0);
    }
  });

  it('keeps the status of a token error whose compressed body does not decode', async () => {
    const tokens = await server((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end('{"error":"invalid_client"}');
    });
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    const result = failure(await rest.execute('me', {}, createToolContext()));
    expect(result.error.code).toBe('DENIED');
    expect(result.error.message).toContain(
      'OAuth2 token endpoint answered HTTP 401: {"error":"invalid_client"}',
    );
  });
});

describe('OAuth2 token answers too large or unfit for a header', () => {
  it('stops reading a token endpoint past 64 KiB and refuses a token a header cannot carry, without caching it', async () => {
    let answer: 'huge' | 'broken' | 'good' = 'huge';
    const tokens = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      if (answer === 'huge') response.end(JSON.stringify({ access_token: 'a'.repeat(1024 * 1024) }));
      else
        response.end(JSON.stringify({ access_token: answer === 'broken' ? 'tok\r\nx-evil: 1' : 'tok-ok' }));
    });
    const api = await server();
    const rest = provider({
      me: getTool(`${api.origin}/me`, {
        auth: {
          type: 'oauth2-client-credentials',
          tokenUrl: `${tokens.origin}/token`,
          clientId: 'id',
          clientSecret: 'secret',
        },
      }),
    });
    const huge = failure(await rest.execute('me', {}, createToolContext()));
    expect(huge.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(huge.error.message).toContain('more than 64 KiB');
    answer = 'broken';
    const broken = failure(await rest.execute('me', {}, createToolContext()));
    // not cached: undici would refuse it as CONFIG_INVALID on every call
    expect(broken.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(broken.error.message).toContain('characters a header cannot carry');
    expect(api.requests).toHaveLength(0);
    answer = 'good';
    expect((await rest.execute('me', {}, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.headers.authorization).toBe('Bearer tok-ok');
    expect(tokens.requests).toHaveLength(3);
  });
});
