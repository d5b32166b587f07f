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
import type { McpAuthRecord } from './token-store.js';

/** What the redirect to the login's redirect URI carried (its query). */
export interface McpAuthRedirect {
  readonly code?: string;
  readonly state?: string;
  readonly error?: string;
  readonly errorDescription?: string;
}

/** Options of {@link beginMcpLogin}. */
export interface McpLoginBeginOptions {
  readonly auth: McpAuth;
  readonly server: string;
  readonly serverUrl: string;
  /** Where the authorization server sends the browser back. */
  readonly redirectUrl: string;
  /** A pre-registered client; without one the stored client, a metadata document, or RFC 7591. */
  readonly client?: OAuthClientInformationMixed;
  /** Scope to ask for; default from the 401's `WWW-Authenticate`, else `scopes_supported`. */
  readonly scope?: string;
  readonly fetch?: typeof fetch;
}

/**
 * What a started login must keep until the browser comes back: plain JSON, so it can be stored
 * anywhere (another process may complete it). It holds the PKCE code verifier and maybe a
 * client secret: keep it as secret as tokens.
 */
export interface McpPendingLogin {
  readonly server: string;
  readonly serverUrl: string;
  readonly redirectUrl: string;
  /** The `state` sent; the redirect must carry it back. */
  readonly state: string;
  readonly codeVerifier: string;
  readonly scope?: string;
  readonly resourceMetadataUrl?: string;
  /** The server's record as the login left it: client, discovery, redirect URI, scope. */
  readonly record: McpAuthRecord;
}

/** How {@link beginMcpLogin} ended. */
export type McpLoginStart =
  /** The server answered without asking for a token: nothing was stored. */
  | { readonly status: 'not-required' }
  /** Tokens were obtained without a browser (they are in the store). */
  | { readonly status: 'authorized'; readonly scope?: string }
  /** Open `authorizationUrl`; hand `pending` and the redirect's query to {@link completeMcpLogin}. */
  | {
      readonly status: 'redirect';
      readonly authorizationUrl: URL;
      readonly pending: McpPendingLogin;
      readonly scope?: string;
    };

/** Options of {@link completeMcpLogin}. */
export interface McpLoginCompleteOptions {
  /** The store the tokens go to (the pending login's record is written there first). */
  readonly auth: McpAuth;
  readonly pending: McpPendingLogin;
  readonly redirect: McpAuthRedirect;
  readonly fetch?: typeof fetch;
}

const denied = (server: string, message: string, details: Record<string, unknown> = {}): ToolError =>
  new ToolError('DENIED', `MCP server "${server}": ${message}`, { details: { server, ...details } });

const fetchOf = (settings: McpAuth, given: typeof fetch | undefined): typeof fetch =>
  tokenEndpointFetch(authTimeoutFetch(given ?? fetch, settings.requestTimeoutMs)).fetch;

/**
 * The first half of a login (MCP authorization 2025-11-25, through the SDK's `auth()`):
 * discovery, registration when needed, PKCE, and the authorization URL. Nothing waits for the
 * browser: the answer carries what {@link completeMcpLogin} needs, in any process.
 *
 * @example
 * const start = await beginMcpLogin({ auth, server: 'docs', serverUrl, redirectUrl });
 * if (start.status === 'redirect') save(start.pending), show(start.authorizationUrl);
 */
export async function beginMcpLogin(options: McpLoginBeginOptions): Promise<McpLoginStart> {
  const { auth: settings, server, serverUrl } = options;
  const fetchFn = fetchOf(settings, options.fetch);
  const probe = await probeAuth(serverUrl, fetchFn);
  const previous = await settings.read(server);
  const sameUrl = previous?.serverUrl === serverUrl;
  // a server may need no token for initialize and ask for one later: a call kept its challenge
  const challenge = sameUrl ? previous?.challenge : undefined;
  if (!probe.required && !challenge) return { status: 'not-required' };
  const granted = sameUrl ? (previous?.tokens?.scope ?? previous?.scope) : undefined;
  const scope =
    options.scope ??
    (challenge?.status === 403 ? stepUpScope(granted, challenge.scope) : undefined) ??
    probe.scope ??
    challenge?.scope;
  // a client registered for another redirect URI (the listener's port changes) is registered again
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
  const first = await auth(provider, {
    serverUrl,
    fetchFn,
    ...(scope ? { scope } : {}),
    ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
  });
  if (first === 'AUTHORIZED') return { status: 'authorized', ...(scope ? { scope } : {}) };
  const codeVerifier = provider.pendingVerifier();
  if (!authorizationUrl || codeVerifier === undefined)
    throw denied(server, 'the authorization server gave no authorization URL');
  const record = await settings.read(server);
  const { tokens: _none, ...kept } = record ?? { serverUrl };
  return {
    status: 'redirect',
    authorizationUrl,
    ...(scope ? { scope } : {}),
    pending: {
      server,
      serverUrl,
      redirectUrl: options.redirectUrl,
      state,
      codeVerifier,
      ...(scope ? { scope } : {}),
      ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
      record: kept,
    },
  };
}

/**
 * The second half of a login: checks the redirect's `state`, exchanges its code with the
 * pending login's code verifier and stores the tokens in `auth`'s store. Refused with `DENIED`
 * (`details.reason` `STATE_MISMATCH`, the authorization server's error, or `NO_CODE`).
 *
 * @example
 * await completeMcpLogin({ auth, pending: load(state), redirect: { code, state } });
 */
export async function completeMcpLogin(options: McpLoginCompleteOptions): Promise<{ scope?: string }> {
  const { auth: settings, pending, redirect } = options;
  const { server, serverUrl, scope } = pending;
  if (redirect.state !== pending.state)
    throw denied(server, 'the redirect carried another state than the login sent: log in again', {
      reason: 'STATE_MISMATCH',
    });
  if (redirect.error !== undefined || redirect.code === undefined)
    throw denied(
      server,
      `the authorization server refused the login: ${redirect.error ?? 'no code'}${redirect.errorDescription ? ` (${redirect.errorDescription})` : ''}`,
      { reason: redirect.error ?? 'NO_CODE' },
    );
  await settings.write(server, pending.record);
  const provider = new StoreOAuthProvider(settings, server, serverUrl, {
    kind: 'login',
    redirectUrl: pending.redirectUrl,
    state: pending.state,
    codeVerifier: pending.codeVerifier,
    onAuthorizationUrl: () => {},
  });
  const outcome = await auth(provider, {
    serverUrl,
    fetchFn: fetchOf(settings, options.fetch),
    authorizationCode: redirect.code,
    ...(scope ? { scope } : {}),
    ...(pending.resourceMetadataUrl ? { resourceMetadataUrl: new URL(pending.resourceMetadataUrl) } : {}),
  });
  if (outcome !== 'AUTHORIZED') throw denied(server, 'the code exchange gave no tokens');
  return scope ? { scope } : {};
}
