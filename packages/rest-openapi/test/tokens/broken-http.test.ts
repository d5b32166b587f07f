import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from '../helpers/bad-input.js';
import { oauth, useCleanups } from '../helpers/fixtures.js';
import { BROKEN_ANSWERS, rawServer } from '../helpers/raw-server.js';

const { server, provider, defer } = useCleanups();

describe('a token endpoint answering with something that is not HTTP/1.1', () => {
  it('fails EXECUTION_FAILED, not retryable, naming the token endpoint; the API is not called', async () => {
    const api = await server();
    for (const [what, answer] of Object.entries(BROKEN_ANSWERS)) {
      const tokens = await rawServer(defer, answer);
      const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens}/token`) }) });
      const result = failure(await rest.execute('me', {}, createToolContext()));
      // not "broke off its answer" or "is unreachable", PROVIDER_UNAVAILABLE (retryable)
      expect(result.error.code, what).toBe('EXECUTION_FAILED');
      expect(result.error.retryable, what).toBe(false);
      expect(result.error.message, what).toContain(`OAuth2 token endpoint ${tokens}/token answered with`);
      expect(result.error.message, what).toContain('the token endpoint or a proxy in between is misbehaving');
    }
    expect(api.requests).toHaveLength(0);
  });

  it('says PROVIDER_UNAVAILABLE when the token endpoint closes before answering', async () => {
    const api = await server();
    const tokens = await rawServer(defer, '');
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens}/token`) }) });
    const result = failure(await rest.execute('me', {}, createToolContext()));
    expect(result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(result.error.message).toContain(`OAuth2 token endpoint ${tokens}/token is unreachable`);
    expect(api.requests).toHaveLength(0);
  });
});
