import { createToolContext } from '@toolplane/core';
import { expect } from 'vitest';
import { getTool } from './bad-input.js';
import { oauth, type useCleanups } from './fixtures.js';
import { sendJson } from './loopback.js';

/**
 * A token endpoint issuing tok-1, tok-2... with this `expires_in`, an API that accepts any, and
 * a provider calling it: `call()` makes one call (it must succeed), `sent()` lists the
 * Authorization headers the API received.
 */
export async function issuingTokens(cleanups: ReturnType<typeof useCleanups>, expiresIn: unknown) {
  let issued = 0;
  const tokens = await cleanups.server((_request, response) => {
    issued++;
    sendJson(response, 200, { access_token: `tok-${issued}`, token_type: 'Bearer', expires_in: expiresIn });
  });
  const api = await cleanups.server();
  const rest = cleanups.provider({
    me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }),
  });
  const call = async () => expect((await rest.execute('me', {}, createToolContext())).ok).toBe(true);
  const sent = () => api.requests.map((request) => request.headers.authorization);
  return { tokens, call, sent };
}
