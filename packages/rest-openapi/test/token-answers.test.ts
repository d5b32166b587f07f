import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from './helpers/bad-input.js';
import { fakeSecret, useCleanups } from './helpers/fixtures.js';
import { sendJson } from './helpers/loopback.js';

const { server, provider } = useCleanups();

const oauth = (tokenUrl: string, clientSecret = 'secret') => ({
  type: 'oauth2-client-credentials' as const,
  tokenUrl,
  clientId: 'id',
  clientSecret,
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
        // it used to be sent as "Authorization: Bearer <token>", which the API cannot accept
        // (a DPoP or MAC token needs a proof the client never made)
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
