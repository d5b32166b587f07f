import { randomBytes } from 'node:crypto';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import { ToolError } from '@toolplane/core';
import { authTimeoutFetch } from './auth-fetch.js';
import { stepUpScope } from './challenge.js';
import type { McpAuth } from './mcp-auth.js';
import { probeAuth } from './probe.js';
import { StoreOAuthProvider } from './store-provider.js';
import { tokenEndpointFetch } from './token-endpoint-fetch.js';

/** What the redirect to the loopback listener carried. */
export interface McpAuthRedirect {
  readonly code?: string;
  readonly state?: string;
  readonly error?: string;
  readonly errorDescription?: string;
}

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

const denied = (server: string, message: string, details: Record<string, unknown> = {}): ToolError =>
  new ToolError('DENIED', `MCP server "${server}": ${message}`, { details: { server, ...details } });

/**
 * Logs in to a remote MCP server with the authorization code flow and PKCE (MCP authorization
 * 2025-11-25, through the SDK's `auth()`): discovery, registration when needed, the URL for the
 * user, the redirect (its `state` checked), the code exchange; the tokens go to the store.
 */
export async function loginMcpServer(options: McpLoginOptions): Promise<McpLoginResult> {
  const { auth: settings, server, serverUrl } = options;
  const fetchFn = tokenEndpointFetch(
    authTimeoutFetch(options.fetch ?? fetch, settings.requestTimeoutMs),
  ).fetch;
  const probe = await probeAuth(serverUrl, fetchFn);
  const previous = await settings.read(server);
  const sameUrl = previous?.serverUrl === serverUrl;
  // a server may need no token for initialize and ask for one later: a call kept its challenge
  const challenge = sameUrl ? previous?.challenge : undefined;
  if (!probe.required && !challenge) return { required: false };
  // a client registered for another redirect URI (the listener's port changes) is registered again
  const granted = sameUrl ? (previous?.tokens?.scope ?? previous?.scope) : undefined;
  const scope =
    options.scope ??
    (challenge?.status === 403 ? stepUpScope(granted, challenge.scope) : undefined) ??
    probe.scope ??
    challenge?.scope;
  const keepClient =
    sameUrl && previous?.client && (previous.preRegistered || previous.redirectUri === options.redirectUrl);
  await settings.write(server, {
    serverUrl,
    ...(options.client
      ? { client: options.client, preRegistered: true }
      : keepClient
        ? { client: previous.client, ...(previous.preRegistered ? { preRegistered: true } : {}) }
        : {}),
    redirectUri: options.redirectUrl,
    ...(scope ? { scope } : {}),
  });
  const state = randomBytes(24).toString('base64url');
  let authorizationUrl: URL | undefined;
  const provider = new StoreOAuthProvider(settings, server, serverUrl, {
    kind: 'login',
    redirectUrl: options.redirectUrl,
    state,
    onAuthorizationUrl: (url) => {
      authorizationUrl = url;
    },
  });
  const resourceMetadataUrl =
    probe.resourceMetadataUrl ??
    (challenge?.resourceMetadataUrl ? new URL(challenge.resourceMetadataUrl) : undefined);
  const common = {
    serverUrl,
    fetchFn,
    ...(scope ? { scope } : {}),
    ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
  };
  const first = await auth(provider, common);
  if (first === 'AUTHORIZED') return { required: true, ...(scope ? { scope } : {}) };
  if (!authorizationUrl) throw denied(server, 'the authorization server gave no authorization URL');
  await options.onAuthorizationUrl(authorizationUrl);
  const redirect = await options.waitForRedirect();
  if (redirect.state !== state) {
    throw denied(server, 'the redirect carried another state than the login sent: log in again', {
      reason: 'STATE_MISMATCH',
    });
  }
  if (redirect.error !== undefined || redirect.code === undefined) {
    throw denied(
      server,
      `the authorization server refused the login: ${redirect.error ?? 'no code'}${redirect.errorDescription ? ` (${redirect.errorDescription})` : ''}`,
      { reason: redirect.error ?? 'NO_CODE' },
    );
  }
  const second = await auth(provider, { ...common, authorizationCode: redirect.code });
  if (second !== 'AUTHORIZED') throw denied(server, 'the code exchange gave no tokens');
  return { required: true, ...(scope ? { scope } : {}) };
}

/** Forgets the tokens and client of `server`. */
export async function logoutMcpServer(settings: McpAuth, server: string): Promise<boolean> {
  const had = (await settings.store.read(server)) !== undefined;
  await settings.store.remove(server);
  return had;
}
