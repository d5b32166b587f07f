import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from '../helpers/bad-input.js';
import { useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, provider } = useCleanups();

/** The documented bound of the OAuth2 token cache (docs/auth.md, "Lifetimes and the cache"). */
const KEPT_TOKENS = 64;

describe('the OAuth2 token cache across rotated credentials', () => {
  it('keeps the tokens of the last 64 credentials, not of every credential it ever saw', async () => {
    // a long-running server rotating the client secret in its environment (a reload) must not
    // keep one cache entry per secret ever used, for ever
    const tokens = await server((request, response) => {
      const secret = Buffer.from((request.headers.authorization ?? '').slice(6), 'base64')
        .toString()
        .split(':')[1];
      sendJson(response, 200, { access_token: `tok-for-${secret}`, token_type: 'Bearer', expires_in: 3600 });
    });
    const api = await server();
    const env: Record<string, string> = {};
    const rest = provider(
      {
        me: getTool(`${api.origin}/me`, {
          auth: {
            type: 'oauth2-client-credentials',
            tokenUrl: `${tokens.origin}/token`,
            clientId: 'id',
            clientSecret: '${CLIENT_SECRET}',
          },
        }),
      },
      { env },
    );
    const rotations = KEPT_TOKENS * 3;
    const call = async (secret: number) => {
      env.CLIENT_SECRET = `s${secret}`;
      expect((await rest.execute('me', {}, createToolContext())).ok).toBe(true);
    };
    for (let secret = 0; secret < rotations; secret++) await call(secret);
    expect(tokens.requests).toHaveLength(rotations);
    // the newest 64 are still cached: no token request
    for (let secret = rotations - KEPT_TOKENS; secret < rotations; secret++) await call(secret);
    expect(tokens.requests).toHaveLength(rotations);
    // an older one was dropped: asked again
    await call(rotations - KEPT_TOKENS - 1);
    expect(tokens.requests).toHaveLength(rotations + 1);
    expect(api.requests.at(-1)?.headers.authorization).toBe(`Bearer tok-for-s${rotations - KEPT_TOKENS - 1}`);
  });

  it('keeps the Retry-After waits of the last 64 credentials', async () => {
    const tokens = await server((_request, response) => {
      response.writeHead(429, { 'retry-after': '300', 'content-type': 'application/json' });
      response.end('{"error":"slow_down"}');
    });
    const api = await server();
    const env: Record<string, string> = {};
    const rest = provider(
      {
        me: getTool(`${api.origin}/me`, {
          auth: {
            type: 'oauth2-client-credentials',
            tokenUrl: `${tokens.origin}/token`,
            clientId: '${CLIENT_ID}',
            clientSecret: 'secret',
          },
        }),
      },
      { env },
    );
    const call = async (client: number) => {
      env.CLIENT_ID = `c${client}`;
      return failure(await rest.execute('me', {}, createToolContext())).error.code;
    };
    for (let client = 0; client < KEPT_TOKENS * 2; client++) expect(await call(client)).toBe('RATE_LIMITED');
    expect(tokens.requests).toHaveLength(KEPT_TOKENS * 2);
    // the newest still wait without asking; the oldest wait was dropped, so it is asked again
    expect(await call(KEPT_TOKENS * 2 - 1)).toBe('RATE_LIMITED');
    expect(tokens.requests).toHaveLength(KEPT_TOKENS * 2);
    expect(await call(0)).toBe('RATE_LIMITED');
    expect(tokens.requests).toHaveLength(KEPT_TOKENS * 2 + 1);
    expect(api.requests).toHaveLength(0);
  });
});
