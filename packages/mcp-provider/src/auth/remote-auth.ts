import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolError } from '@toolplane/core';
import { authTimeoutFetch } from './auth-fetch.js';
import { authRequiredError } from './auth-required.js';
import { challengeFetch } from './challenge-fetch.js';
import type { McpAuth } from './mcp-auth.js';
import { refreshIfExpiring } from './refresh.js';
import { StoreOAuthProvider } from './store-provider.js';
import { tokenEndpointFetch } from './token-endpoint-fetch.js';

/** What a remote transport needs for OAuth: the SDK's provider and a bounded fetch. */
export interface RemoteAuth {
  readonly authProvider: OAuthClientProvider;
  readonly fetch: typeof fetch;
  /** Turns an auth failure of the SDK into `AUTH_REQUIRED` (others unchanged). */
  explain(error: unknown): unknown;
}

/**
 * Prepares OAuth for one session of a remote server: refreshes a token about to expire, then
 * hands the transport a provider that refreshes on 401 and never starts an interactive login.
 */
export async function prepareRemoteAuth(
  settings: McpAuth,
  server: string,
  serverUrl: string,
  base: typeof fetch,
): Promise<RemoteAuth> {
  const tokenFetch = tokenEndpointFetch(authTimeoutFetch(base, settings.requestTimeoutMs));
  const command = settings.loginCommand(server);
  const explain = (error: unknown): unknown => {
    if (ToolError.isInstance(error)) return error;
    if (error instanceof UnauthorizedError)
      return authRequiredError(server, command, 'the server refused the stored token');
    // a 403 left after the SDK's one step-up: the token lacks a scope only a new login grants
    if (error instanceof StreamableHTTPError && error.code === 403)
      return authRequiredError(
        server,
        command,
        'the server needs a scope the stored token lacks (--scope widens it)',
      );
    const cause = (error as { cause?: unknown } | null)?.cause;
    if (ToolError.isInstance(cause)) return cause;
    return error;
  };
  try {
    await refreshIfExpiring(settings, server, serverUrl, tokenFetch);
  } catch (error) {
    throw explain(error);
  }
  return {
    authProvider: new StoreOAuthProvider(settings, server, serverUrl, {
      kind: 'call',
      tokenFailure: tokenFetch.takeFailure,
    }),
    fetch: challengeFetch(settings, server, serverUrl, tokenFetch.fetch),
    explain,
  };
}
