import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { fakeSecret, objectSchema, useCleanups } from './helpers/fixtures.js';
import { echo, sendJson } from './helpers/loopback.js';

const { server, provider } = useCleanups();
const noArgs = objectSchema({});

describe('redirects', () => {
  it('follows redirects on the configured host, and turns 303 into GET', async () => {
    const api = await server((request, response) => {
      if (request.url === '/old') {
        response.writeHead(301, { location: '/new?x=1' });
        return response.end();
      }
      if (request.url === '/submit') {
        response.writeHead(303, { location: '/result' });
        return response.end();
      }
      echo(request, response);
    });
    const rest = provider({
      old: { description: 'd', method: 'GET', url: `${api.origin}/old`, parametersSchema: noArgs },
      submit: {
        description: 'd',
        method: 'POST',
        url: `${api.origin}/submit`,
        parametersSchema: objectSchema({ a: { type: 'string' } }),
      },
    });
    const old = await rest.execute('old', {}, createToolContext());
    expect(old.ok && old.structured).toMatchObject({ method: 'GET', url: '/new?x=1' });
    const submit = await rest.execute('submit', { a: 'b' }, createToolContext());
    expect(submit.ok && submit.structured).toMatchObject({ method: 'GET', url: '/result', body: '' });
  });

  it('refuses redirects to hosts the tool is not configured for, and sends them nothing', async () => {
    const evil = await server();
    const api = await server((_request, response) => {
      response.writeHead(302, { location: `${evil.origin}/steal` });
      response.end();
    });
    const token = fakeSecret('tok');
    const rest = provider(
      {
        get: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/x`,
          auth: { type: 'bearer', token: '${TOKEN}' },
          parametersSchema: noArgs,
        },
      },
      { env: { TOKEN: token } },
    );
    const result = await rest.execute('get', {}, createToolContext());
    expect(result.ok === false && result.error.code).toBe('DENIED');
    expect(result.ok === false && result.error.message).toContain('allowedRedirectHosts');
    expect(evil.requests).toHaveLength(0);
  });

  it('follows redirects to allowed hosts without the credentials', async () => {
    const other = await server();
    const api = await server((_request, response) => {
      response.writeHead(307, { location: `${other.origin}/moved` });
      response.end();
    });
    const token = fakeSecret('tok');
    const rest = provider(
      {
        put: {
          description: 'd',
          method: 'PUT',
          url: `${api.origin}/x`,
          auth: [
            { type: 'bearer', token: '${TOKEN}' },
            { type: 'apiKey', in: 'header', name: 'X-Api-Key', value: '${TOKEN}' },
          ],
          allowedRedirectHosts: ['127.0.0.1'],
          parametersSchema: objectSchema({ v: { type: 'integer' } }),
        },
      },
      { env: { TOKEN: token } },
    );
    const result = await rest.execute('put', { v: 1 }, createToolContext());
    expect(result.ok && result.structured).toMatchObject({ method: 'PUT', url: '/moved', body: '{"v":1}' });
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
    expect(other.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('stops redirect loops and honours maxRedirects 0', async () => {
    const api = await server((request, response) => {
      response.writeHead(302, { location: request.url === '/a' ? '/b' : '/a' });
      response.end();
    });
    const rest = provider({
      loop: { description: 'd', method: 'GET', url: `${api.origin}/a`, parametersSchema: noArgs },
      none: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/a`,
        maxRedirects: 0,
        parametersSchema: noArgs,
      },
    });
    const loop = await rest.execute('loop', {}, createToolContext());
    expect(loop.ok === false && loop.error.message).toContain('redirected more than 5 times');
    expect(api.requests).toHaveLength(6);
    const none = await rest.execute('none', {}, createToolContext());
    expect(none.ok === false && none.error.details?.status).toBe(302);
  });
});

describe('auth', () => {
  it('sends bearer, basic, and API keys in header, query and cookie from the environment', async () => {
    const api = await server();
    const env = { TOKEN: fakeSecret('tok'), USER: 'robot', PASS: fakeSecret('pw'), KEY: fakeSecret('key') };
    const rest = provider(
      {
        bearer: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/b`,
          auth: { type: 'bearer', token: '${TOKEN}' },
          parametersSchema: noArgs,
        },
        basic: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/c`,
          auth: { type: 'basic', username: '${USER}', password: '${PASS}' },
          parametersSchema: noArgs,
        },
        keys: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/k`,
          auth: [
            { type: 'apiKey', in: 'query', name: 'api_key', value: '${KEY}' },
            { type: 'apiKey', in: 'cookie', name: 'session', value: '${KEY}' },
          ],
          parametersSchema: objectSchema({ q: { type: 'string' } }),
        },
        optional: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/o`,
          auth: { type: 'bearer', token: '${ABSENT}', optional: true },
          parametersSchema: noArgs,
        },
      },
      { env },
    );
    await rest.execute('bearer', {}, createToolContext());
    await rest.execute('basic', {}, createToolContext());
    await rest.execute('keys', { q: 'x' }, createToolContext());
    const optional = await rest.execute('optional', {}, createToolContext());
    expect(optional.ok).toBe(true);
    const [bearer, basic, keys, none] = api.requests;
    expect(bearer?.headers.authorization).toBe(`Bearer ${env.TOKEN}`);
    expect(basic?.headers.authorization).toBe(`Basic ${Buffer.from(`robot:${env.PASS}`).toString('base64')}`);
    expect(keys?.url).toBe(`/k?q=x&api_key=${env.KEY}`);
    expect(keys?.headers.cookie).toBe(`session=${env.KEY}`);
    expect(none?.headers.authorization).toBeUndefined();
    const secrets = rest.secretValues();
    for (const value of [env.TOKEN, env.PASS, env.KEY]) expect(secrets).toContain(value);
  });

  it('fetches an OAuth2 client-credentials token once, caches it, and reports bad credentials', async () => {
    const clientId = 'client-1';
    const clientSecret = fakeSecret('secret');
    const accessToken = fakeSecret('access');
    const tokens = await server((request, response) => {
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== expected)
        return sendJson(response, 401, { error: 'invalid_client' });
      const form = new URLSearchParams(request.body);
      if (form.get('grant_type') !== 'client_credentials')
        return sendJson(response, 400, { error: 'unsupported_grant_type' });
      sendJson(response, 200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 3600,
        scope: form.get('scope'),
      });
    });
    const api = await server();
    const tool = (secret: string) => ({
      description: 'd',
      method: 'GET' as const,
      url: `${api.origin}/me`,
      auth: {
        type: 'oauth2-client-credentials' as const,
        tokenUrl: `${tokens.origin}/oauth/token`,
        clientId,
        clientSecret: secret,
        scopes: ['read', 'write'],
      },
      parametersSchema: noArgs,
    });
    const rest = provider(
      { me: tool('${CLIENT_SECRET}'), wrong: tool('not-the-secret') },
      { env: { CLIENT_SECRET: clientSecret } },
    );
    for (let i = 0; i < 3; i++) {
      const result = await rest.execute('me', {}, createToolContext());
      expect(result.ok).toBe(true);
    }
    expect(tokens.requests).toHaveLength(1);
    expect(new URLSearchParams(tokens.requests[0]?.body).get('scope')).toBe('read write');
    expect(api.requests.map((request) => request.headers.authorization)).toEqual(
      Array(3).fill(`Bearer ${accessToken}`),
    );
    expect(rest.secretValues()).toContain(accessToken);
    const wrong = await rest.execute('wrong', {}, createToolContext());
    expect(wrong.ok === false && wrong.error.code).toBe('DENIED');
    expect(wrong.ok === false && wrong.error.message).toContain('HTTP 401');
    expect(api.requests).toHaveLength(3);
  });
});

describe('auth: OAuth2 token endpoint that hangs', () => {
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
