import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from '../helpers/bad-input.js';
import { fakeSecret, oauth, objectSchema, useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, provider } = useCleanups();
const noArgs = objectSchema({});

describe('OAuth2 token requests', () => {
  it('sends the client secret only in the Basic header, keeps the tokenUrl query, and encodes hostile scopes', async () => {
    const secret = fakeSecret('secret');
    const tokens = await server((_request, response) =>
      sendJson(response, 200, { access_token: 'tok-1', token_type: 'Bearer' }),
    );
    const api = await server();
    const rest = provider({
      me: getTool(`${api.origin}/me`, {
        auth: {
          ...oauth(`${tokens.origin}/oauth/token?tenant=t%201&api-version=2#frag`, secret),
          scopes: ['read&client_secret=x', 'a=b?c#d', 'write'],
          audience: 'https://api.example.test/?x=1&grant_type=password',
        },
      }),
    });
    expect((await rest.execute('me', {}, createToolContext())).ok).toBe(true);
    const [request] = tokens.requests;
    expect(tokens.requests).toHaveLength(1);
    expect(request?.method).toBe('POST');
    // the query of tokenUrl is kept as written (some endpoints need a tenant or version), the fragment is not sent
    expect(request?.url).toBe('/oauth/token?tenant=t%201&api-version=2');
    const form = new URLSearchParams(request?.body);
    expect([...form.keys()]).toEqual(['grant_type', 'scope', 'audience']);
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('scope')).toBe('read&client_secret=x a=b?c#d write');
    expect(form.get('audience')).toBe('https://api.example.test/?x=1&grant_type=password');
    const basic = Buffer.from(String(request?.headers.authorization).replace(/^Basic /, ''), 'base64');
    expect(basic.toString('utf8')).toBe(`id:${secret}`);
    // nowhere else: not in the target, the body or another header, and never at the API
    const { authorization: _basic, ...otherHeaders } = request?.headers ?? {};
    expect(`${request?.url} ${request?.body} ${JSON.stringify(otherHeaders)}`).not.toContain(secret);
    expect(JSON.stringify(api.requests)).not.toContain(secret);
  });

  it('fetches one token for concurrent first calls, and asks again after that shared fetch failed', async () => {
    let fail = true;
    const tokens = await server(
      (_request, response) =>
        new Promise<void>((resolve) =>
          // a slow token endpoint: every call below starts while the first fetch is in flight
          setTimeout(() => {
            if (fail) sendJson(response, 503, { error: 'temporarily_unavailable' });
            else sendJson(response, 200, { access_token: 'tok-1', token_type: 'Bearer', expires_in: 3600 });
            resolve();
          }, 300),
        ),
    );
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    const burst = () =>
      Promise.all(Array.from({ length: 12 }, () => rest.execute('me', {}, createToolContext())));
    const failed = await burst();
    for (const result of failed) expect(failure(result).error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(tokens.requests).toHaveLength(1);
    expect(api.requests).toHaveLength(0);
    // a failure is not cached: the next burst asks once more, and shares the answer again
    fail = false;
    const served = await burst();
    expect(served.every((result) => result.ok)).toBe(true);
    expect(tokens.requests).toHaveLength(2);
    expect(api.requests.map((request) => request.headers.authorization)).toEqual(
      Array(12).fill('Bearer tok-1'),
    );
  });

  it('goes on fetching for the other callers when the first one is cancelled', async () => {
    const tokens = await server(
      (_request, response) =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            sendJson(response, 200, { access_token: 'tok-1', token_type: 'Bearer', expires_in: 3600 });
            resolve();
          }, 300),
        ),
    );
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    const first = new AbortController();
    const calls = [
      rest.execute('me', {}, createToolContext({ signal: first.signal })),
      rest.execute('me', {}, createToolContext()),
      rest.execute('me', {}, createToolContext()),
    ];
    for (let wait = 0; wait < 1000 && tokens.requests.length === 0; wait++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    first.abort();
    const [cancelled, ...others] = await Promise.all(calls);
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(others.every((result) => result.ok)).toBe(true);
    expect(tokens.requests).toHaveLength(1);
    expect(api.requests).toHaveLength(2);
  });
});

describe('OAuth2 token endpoint that never answers', () => {
  it('names the token endpoint, not the API, when the call times out waiting for a token', async () => {
    const tokens = await server(() => new Promise(() => undefined));
    const api = await server();
    const rest = provider({
      me: getTool(`${api.origin}/me`, { timeoutMs: 300, auth: oauth(`${tokens.origin}/token?tenant=t`) }),
    });
    const result = failure(await rest.execute('me', {}, createToolContext()));
    expect(result.error.code).toBe('TIMEOUT');
    // not "GET <api>/me did not answer within 300 ms", a request never sent
    expect(result.error.message).toContain(
      `OAuth2 token endpoint ${tokens.origin}/token did not answer within 300 ms`,
    );
    expect(result.error.message).toContain(`GET ${api.origin}/me was not sent`);
    expect(result.error.message).not.toContain('tenant=t');
    expect(api.requests).toHaveLength(0);
    // cancelled while waiting: still CANCELLED
    const caller = new AbortController();
    const call = rest.execute('me', {}, createToolContext({ signal: caller.signal }));
    caller.abort();
    expect(failure(await call).error.code).toBe('CANCELLED');
  });

  it('ends a call waiting for a token when the provider closes, saying so and not retryable', async () => {
    for (const stage of ['headers', 'body']) await closedWhileWaiting(stage);
  });

  async function closedWhileWaiting(stage: string): Promise<void> {
    const tokens = await server((_request, response) => {
      if (stage === 'headers') return; // never answers
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"access_');
    });
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    const calls = [rest.execute('me', {}, createToolContext()), rest.execute('me', {}, createToolContext())];
    for (let wait = 0; wait < 400 && tokens.requests.length === 0; wait++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await rest.close();
    for (const result of await Promise.all(calls)) {
      // not a retryable "OAuth2 token endpoint ... is unreachable"
      expect(failure(result).error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(failure(result).error.retryable).toBe(false);
      expect(failure(result).error.message, stage).toContain(
        'its provider was closed while it waited for an OAuth2 token',
      );
    }
    expect(api.requests).toHaveLength(0);
  }

  it('says the token endpoint is too slow, not unreachable, when it sends no headers in time', async () => {
    const tokens = await server(() => new Promise(() => undefined));
    const api = await server();
    const rest = provider(
      { me: getTool(`${api.origin}/me`, { timeoutMs: '1m', auth: oauth(`${tokens.origin}/token`) }) },
      { headersTimeoutMs: 300 },
    );
    const result = failure(await rest.execute('me', {}, createToolContext()));
    // not PROVIDER_UNAVAILABLE "OAuth2 token endpoint ... is unreachable"
    expect(result.error.code).toBe('TIMEOUT');
    expect(result.error.message).toContain(
      `OAuth2 token endpoint ${tokens.origin}/token sent no answer in time`,
    );
    expect(api.requests).toHaveLength(0);
  });
});

describe('OAuth2 token endpoint asking to wait', () => {
  it('does not ask a token endpoint that answered 429 again before its Retry-After has passed', async () => {
    let limited = true;
    const tokens = await server((_request, response) =>
      limited
        ? sendJson(response, 429, { error: 'slow_down' }, { 'retry-after': '2' })
        : sendJson(response, 200, { access_token: 'tok-1', token_type: 'Bearer', expires_in: 3600 }),
    );
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    for (let call = 0; call < 4; call++) {
      const result = failure(await rest.execute('me', {}, createToolContext()));
      expect(result.error.code).toBe('RATE_LIMITED');
      // 2 from the endpoint, then what is left of it (whole seconds, rounded up)
      expect([1, 2]).toContain(result.error.details?.retryAfterSeconds);
    }
    // a loop of calls does not ask it every time while the wait runs
    expect(tokens.requests).toHaveLength(1);
    limited = false;
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await rest.execute('me', {}, createToolContext())).ok).toBe(true);
    expect(tokens.requests).toHaveLength(2);
    expect(api.requests).toHaveLength(1);
  });

  it('leaves a token endpoint alone for at most 5 minutes, whatever its Retry-After says', async () => {
    const tokens = await server((_request, response) =>
      sendJson(response, 429, { error: 'slow_down' }, { 'retry-after': '99999999' }),
    );
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    const first = failure(await rest.execute('me', {}, createToolContext()));
    expect(first.error.details?.retryAfterSeconds).toBe(300);
    const next = failure(await rest.execute('me', {}, createToolContext()));
    expect(next.error.code).toBe('RATE_LIMITED');
    expect(next.error.details?.retryAfterSeconds).toBeLessThanOrEqual(300);
    expect(next.error.message).toContain(`OAuth2 token endpoint ${tokens.origin}/token answered HTTP 429`);
    expect(tokens.requests).toHaveLength(1);
  });

  it('reads a Retry-After given as an HTTP date, from the token endpoint and from the API', async () => {
    const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toUTCString();
    const tokens = await server((_request, response) =>
      sendJson(response, 429, { error: 'slow_down' }, { 'retry-after': inSeconds(120) }),
    );
    const api = await server((_request, response) =>
      sendJson(response, 429, { error: 'busy' }, { 'retry-after': inSeconds(120) }),
    );
    const rest = provider({
      token: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }),
      plain: getTool(`${api.origin}/me`),
    });
    // the date is read: retryAfterSeconds is set, and the token endpoint is not asked on every call
    for (const name of ['token', 'token', 'plain']) {
      const result = failure(await rest.execute(name, {}, createToolContext()));
      expect(result.error.code).toBe('RATE_LIMITED');
      const seconds = result.error.details?.retryAfterSeconds;
      expect(typeof seconds, name).toBe('number');
      expect(seconds as number).toBeGreaterThan(60);
      expect(seconds as number).toBeLessThanOrEqual(121);
    }
    expect(tokens.requests).toHaveLength(1);
    // a date in the past means no wait, not a negative one
    const past = await server((_request, response) =>
      sendJson(response, 429, { error: 'busy' }, { 'retry-after': inSeconds(-60) }),
    );
    const late = provider({ me: getTool(`${past.origin}/me`) });
    const result = failure(await late.execute('me', {}, createToolContext()));
    expect(result.error.details?.retryAfterSeconds).toBe(0);
  });
});

describe('an OAuth2 token endpoint that hangs', () => {
  it('times the call out instead of waiting for the token forever', async () => {
    const tokens = await server(() => undefined); // never answers
    const api = await server();
    const rest = provider({
      me: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/me`,
        timeoutMs: '500ms',
        auth: {
          type: 'oauth2-client-credentials',
          tokenUrl: `${tokens.origin}/token`,
          clientId: 'c',
          clientSecret: 's',
        },
        parametersSchema: noArgs,
      },
    });
    const result = await rest.execute('me', {}, createToolContext());
    expect(result.ok === false && result.error.code).toBe('TIMEOUT');
    expect(api.requests).toHaveLength(0);
  });
});
