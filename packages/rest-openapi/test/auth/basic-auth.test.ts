import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool, thrown } from '../helpers/bad-input.js';
import { fakeSecret, useCleanups } from '../helpers/fixtures.js';

const { server, provider } = useCleanups();

describe('HTTP basic credentials', () => {
  it('refuse a user name with a colon, which the server would split into another user and password', async () => {
    const api = await server();
    const password = fakeSecret('pw');
    const rest = provider(
      {
        a: getTool(`${api.origin}/a`, {
          auth: { type: 'basic', username: '${USER}', password: '${PASSWORD}' },
        }),
      },
      { env: { USER: 'alice:admin', PASSWORD: password } },
    );
    const result = failure(await rest.execute('a', {}, createToolContext()));
    // "alice:admin:<password>" would read as user alice, password "admin:<password>"
    expect(result.error.code).toBe('CONFIG_INVALID');
    expect(result.error.message).toContain('USER');
    expect(result.error.message).toContain('colon');
    expect(result.error.message).not.toContain(password);
    expect(result.error.message).not.toContain('alice');
    expect(api.requests).toHaveLength(0);
    // written into the config, it is refused when the provider is created
    const error = thrown(() =>
      provider({
        a: getTool(`${api.origin}/a`, { auth: { type: 'basic', username: 'alice:admin', password: 'x' } }),
      }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('auth.username');
  });

  it('keep a colon in the password, and UTF-8 user names', async () => {
    const api = await server();
    const rest = provider(
      {
        a: getTool(`${api.origin}/a`, {
          auth: { type: 'basic', username: '${USER}', password: '${PASSWORD}' },
        }),
      },
      { env: { USER: 'zoë', PASSWORD: 'a:b:c' } },
    );
    expect((await rest.execute('a', {}, createToolContext())).ok).toBe(true);
    const sent = String(api.requests[0]?.headers.authorization).replace('Basic ', '');
    expect(Buffer.from(sent, 'base64').toString('utf8')).toBe('zoë:a:b:c');
  });
});
