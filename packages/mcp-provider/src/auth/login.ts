import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import { type McpAuthRedirect, beginMcpLogin, completeMcpLogin } from './login-steps.js';
import type { McpAuth } from './mcp-auth.js';

/** Options of {@link loginMcpServer}. */
export interface McpLoginOptions {
  readonly auth: McpAuth;
  readonly server: string;
  readonly serverUrl: string;
  /** Where the authorization server sends the browser back (the CLI's 127.0.0.1 listener). */
  readonly redirectUrl: string;
  /** Receives the URL the user opens; the login then waits for {@link waitForRedirect}. */
  readonly onAuthorizationUrl: (url: URL) => void | Promise<void>;
  /** Resolves with the redirect's query (bounded by the caller: a timeout, a signal). */
  readonly waitForRedirect: () => Promise<McpAuthRedirect>;
  /** A pre-registered client; without one the stored client, a metadata document, or RFC 7591. */
  readonly client?: OAuthClientInformationMixed;
  /** Scope to ask for; default from the 401's `WWW-Authenticate`, else `scopes_supported`. */
  readonly scope?: string;
  readonly fetch?: typeof fetch;
}

/** The outcome of a login. */
export interface McpLoginResult {
  /** False when the server answered without asking for a token: nothing was stored. */
  readonly required: boolean;
  readonly scope?: string;
}

/**
 * Logs in to a remote MCP server with the authorization code flow and PKCE in one call:
 * {@link beginMcpLogin}, the URL for the user, the redirect, then {@link completeMcpLogin}
 * (its `state` checked, the code exchanged); the tokens go to the store.
 */
export async function loginMcpServer(options: McpLoginOptions): Promise<McpLoginResult> {
  const { onAuthorizationUrl, waitForRedirect, ...begin } = options;
  const start = await beginMcpLogin(begin);
  if (start.status === 'not-required') return { required: false };
  if (start.status === 'authorized')
    return { required: true, ...(start.scope ? { scope: start.scope } : {}) };
  await onAuthorizationUrl(start.authorizationUrl);
  const redirect = await waitForRedirect();
  await completeMcpLogin({
    auth: options.auth,
    pending: start.pending,
    redirect,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return { required: true, ...(start.scope ? { scope: start.scope } : {}) };
}

/** Forgets the tokens and client of `server`. */
export async function logoutMcpServer(settings: McpAuth, server: string): Promise<boolean> {
  const had = (await settings.store.read(server)) !== undefined;
  await settings.store.remove(server);
  return had;
}
