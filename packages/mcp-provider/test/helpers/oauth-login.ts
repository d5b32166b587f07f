import { type McpAuth, type McpAuthRedirect, loginMcpServer } from '../../src/index.js';
import { followAuthorization } from './oauth-fixture.js';

/**
 * Logs in the way the CLI does, with the test as the browser: the authorization URL is opened
 * with fetch and the redirect's query handed back as the loopback listener would.
 */
export async function loginAsBrowser(
  auth: McpAuth,
  server: string,
  serverUrl: string,
  extra: { readonly client?: { client_id: string; client_secret?: string }; readonly scope?: string } = {},
): Promise<{ authorizationUrl: URL }> {
  let redirect: Promise<McpAuthRedirect> | undefined;
  let authorizationUrl: URL | undefined;
  await loginMcpServer({
    auth,
    server,
    serverUrl,
    redirectUrl: 'http://127.0.0.1:53682/callback',
    ...(extra.client ? { client: extra.client } : {}),
    ...(extra.scope ? { scope: extra.scope } : {}),
    onAuthorizationUrl: (url) => {
      authorizationUrl = url;
      redirect = followAuthorization(url);
    },
    waitForRedirect: () => {
      if (!redirect) throw new Error('no authorization URL was given');
      return redirect;
    },
  });
  if (!authorizationUrl) throw new Error('the login finished without an authorization URL');
  return { authorizationUrl };
}
