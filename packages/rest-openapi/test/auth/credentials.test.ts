import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type RestToolConfig, createRestProvider } from '../../src/index.js';
import { getTool, thrown } from '../helpers/bad-input.js';
import { fakeSecret, objectSchema, useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, provider } = useCleanups();
const noArgs = objectSchema({});

describe('auth entries', () => {
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

describe('malformed auth entries', () => {
  it('refuses malformed auth entries and header names at creation, naming the field', () => {
    const url = 'https://api.example.test/x';
    for (const [extra, expected] of [
      // accepted, each would fail every call, some with "values is not iterable" (EXECUTION_FAILED)
      [{ auth: { type: 'digest', token: 't' } }, 'auth.type must be one of bearer, basic, apiKey'],
      [{ auth: { type: 'bearer' } }, 'auth.token must be a string'],
      [{ auth: [{ type: 'bearer', token: 't' }, null] }, 'auth[1] must be an object'],
      [
        { auth: { type: 'apiKey', in: 'body', name: 'k', value: 'v' } },
        'auth.in must be header, query or cookie',
      ],
      [
        { auth: { type: 'apiKey', in: 'header', name: 'x key', value: 'v' } },
        'is not a valid HTTP header name',
      ],
      [
        {
          auth: {
            type: 'oauth2-client-credentials',
            tokenUrl: 'https://auth.example.test/token',
            clientId: 'id',
            clientSecret: 's',
            scopes: 'read',
          },
        },
        'auth.scopes must be a list of strings',
      ],
      [
        { parameters: { tag: { in: 'header', name: 'x tag' } } },
        'parameters.tag: "x tag" is not a valid HTTP header name',
      ],
    ] as const) {
      const error = thrown(() =>
        createRestProvider({
          namespace: 'test',
          tools: { a: getTool(url, extra as Partial<RestToolConfig>) },
        }),
      );
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain(expected);
    }
  });
});
