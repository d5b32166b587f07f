import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpAuth } from './mcp-auth.js';
import { StoreOAuthProvider } from './store-provider.js';
import type { TokenEndpointFetch } from './token-endpoint-fetch.js';

/**
 * Refreshes the access token of `server` when it expires within the leeway and a refresh token
 * is stored (before a session opens, so its first request carries a live token). A refused
 * refresh throws `AUTH_REQUIRED`, a token endpoint that fails otherwise its own error; no
 * stored tokens, nothing to do.
 */
export async function refreshIfExpiring(
  settings: McpAuth,
  server: string,
  serverUrl: string,
  tokenFetch: TokenEndpointFetch,
): Promise<void> {
  const record = await settings.read(server);
  const tokens = record?.serverUrl === serverUrl ? record.tokens : undefined;
  if (!tokens?.refresh_token || tokens.expires_at === undefined) return;
  if (tokens.expires_at - settings.refreshLeewayMs > Date.now()) return;
  const provider = new StoreOAuthProvider(settings, server, serverUrl, {
    kind: 'call',
    tokenFailure: tokenFetch.takeFailure,
  });
  await auth(provider, { serverUrl, fetchFn: tokenFetch.fetch });
}
