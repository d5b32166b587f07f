import type { ServerResponse } from 'node:http';
import { createToolContext } from '@toolplane/core';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from '../helpers/bad-input.js';
import { fakeSecret, oauth, useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, provider, defer } = useCleanups();

/** An Agent the application owns and passes in: closing a provider does not destroy it. */
function sharedAgent(): Agent {
  const agent = new Agent();
  defer(() => agent.destroy());
  return agent;
}

describe('closing a provider with OAuth2 tokens', () => {
  it('leaves no token to a call after close, nor to a new provider from the same config', async () => {
    const dispatcher = sharedAgent();
    const tokens = await server((_request, response) =>
      sendJson(response, 200, { access_token: fakeSecret('tok'), token_type: 'Bearer', expires_in: 3600 }),
    );
    const api = await server();
    const tools = { me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) };
    const first = provider(tools, { dispatcher });
    expect((await first.execute('me', {}, createToolContext())).ok).toBe(true);
    expect((await first.execute('me', {}, createToolContext())).ok).toBe(true);
    expect(tokens.requests).toHaveLength(1);
    await first.close();
    const after = failure(await first.execute('me', {}, createToolContext()));
    expect(after.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(api.requests).toHaveLength(2);
    const second = provider(tools, { dispatcher });
    expect((await second.execute('me', {}, createToolContext())).ok).toBe(true);
    expect(tokens.requests).toHaveLength(2);
    const sent = api.requests.map((request) => request.headers.authorization);
    expect(sent[2]).not.toBe(sent[0]);
  });

  it('neither caches nor sends a token that arrives after close through an application dispatcher', async () => {
    const dispatcher = sharedAgent();
    const held: ServerResponse[] = [];
    const token = fakeSecret('tok');
    const tokens = await server((_request, response) => {
      held.push(response);
    });
    const api = await server();
    const rest = provider(
      { me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) },
      { dispatcher },
    );
    const call = rest.execute('me', {}, createToolContext());
    for (let wait = 0; wait < 400 && held.length === 0; wait++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await rest.close();
    // the token endpoint answers once the provider is closed: the dispatcher is the application's, still open
    for (const response of held) sendJson(response, 200, { access_token: token, token_type: 'Bearer' });
    const result = failure(await call);
    // the call does not go on to the API with the late token, after close
    expect(result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(result.error.retryable).toBe(false);
    expect(result.error.message).toContain('closed while it waited for an OAuth2 token');
    expect(api.requests).toHaveLength(0);
    // the token request was stopped with the provider: the late token was never read
    expect(rest.secretValues()).not.toContain(token);
  });
});
