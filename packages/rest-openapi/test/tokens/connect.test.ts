import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { OAuthTokenCache } from '../../src/oauth-tokens.js';
import { rejection } from '../helpers/bad-input.js';
import { fakeSecret, useCleanups } from '../helpers/fixtures.js';
import { countConnectErrors, silentServer } from '../helpers/silent-server.js';

const { defer } = useCleanups();

describe('a token request still connecting', () => {
  it('ends at its own timeout, not at the connect timeout of the dispatcher', async () => {
    const { port } = await silentServer(defer);
    const connectErrors = countConnectErrors(defer, port);
    // an application's dispatcher that waits longer for a connection than a token request may take
    const dispatcher = new Agent({ connectTimeout: 20_000 });
    defer(() => dispatcher.destroy());
    const tokens = new OAuthTokenCache(dispatcher, 300);
    defer(() => tokens.close());
    const failed = await rejection(
      tokens.token(
        { tokenUrl: `https://127.0.0.1:${port}/token`, clientId: 'id', clientSecret: fakeSecret('cs') },
        new AbortController().signal,
      ),
    );
    expect(failed.code).toBe('TIMEOUT');
    expect(failed.message).toContain(`127.0.0.1:${port}/token`);
    // it does not wait for the dispatcher's connect timeout (20 s) past its own 300 ms
    expect(connectErrors()).toBe(0);
  }, 30_000);
});
