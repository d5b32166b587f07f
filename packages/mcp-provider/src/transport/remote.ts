import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolError } from '@toolplane/core';
import type { McpAuth } from '../auth/mcp-auth.js';
import { type RemoteAuth, prepareRemoteAuth } from '../auth/remote-auth.js';
import { MCP_DEFAULTS, type McpRemoteServerConfig } from '../config/types.js';
import { loadV2, openSession } from '../session/open-session.js';
import { contentTypeHint } from '../tools/call-errors.js';
import { remoteHandle } from '../session/sdk-session.js';
import type { McpSession, SessionOpenOptions } from '../session/session.js';
import { boundedFetch } from './bounded-fetch.js';
import { WebSocketClientTransport } from './websocket.js';

const UNRESOLVED = /\$\{[^}]*\}/;

/** Headers of a remote server, with the bearer token; refuses placeholders that never resolved. */
export function remoteHeaders(server: string, config: McpRemoteServerConfig): Record<string, string> {
  const headers: Record<string, string> = { ...config.headers };
  if (config.bearerToken) headers.Authorization = `Bearer ${config.bearerToken}`;
  for (const [name, value] of Object.entries(headers)) {
    const match = UNRESOLVED.exec(value);
    if (match) {
      throw new ToolError(
        'CONFIG_INVALID',
        `MCP server "${server}": header ${name} uses ${match[0]}, which has no value: set the variable (load the config with loadMcpConfig) before starting`,
        { details: { server, field: `headers.${name}` } },
      );
    }
  }
  return headers;
}

const hasAuthorization = (headers: Record<string, string>): boolean =>
  Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');

/** Whether a failed streamable-HTTP initialize means "try the legacy SSE transport" (4xx but auth). */
function shouldFallBackToSse(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError) || error.code === undefined) return false;
  return error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}

/** Says which HTTP status a refusal had, and what to do about auth refusals. */
function explain(error: unknown): unknown {
  if (error instanceof Error && contentTypeHint(error.message)) {
    // the v1 transport says "HTTP -1" for an answer whose content type it refused
    const message = error.message.replace(/^Streamable HTTP error: /, '');
    return new Error(`${message}${contentTypeHint(message)}`, { cause: error });
  }
  if (!(error instanceof StreamableHTTPError) || error.code === undefined) return error;
  const hint =
    error.code === 401 || error.code === 403
      ? ' (check the bearer token or auth headers of this server)'
      : '';
  return new Error(`HTTP ${error.code}${hint}: ${error.message}`, { cause: error });
}

async function openHttp(
  url: URL,
  headers: Record<string, string>,
  options: SessionOpenOptions,
  oauth?: RemoteAuth,
): Promise<McpSession> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    fetch: oauth?.fetch ?? boundedFetch(MCP_DEFAULTS.maxMessageBytes),
    ...(oauth ? { authProvider: oauth.authProvider } : {}),
  });
  return openSession(remoteHandle(transport, 'http'), 'v1', options);
}

async function openSse(
  url: URL,
  headers: Record<string, string>,
  client: 'v1' | 'v2' | undefined,
  options: SessionOpenOptions,
  oauth?: RemoteAuth,
): Promise<McpSession> {
  const transport = new SSEClientTransport(url, {
    requestInit: { headers },
    // its POSTs too: each gets a signal of its own (see boundedFetch)
    fetch: oauth?.fetch ?? boundedFetch(MCP_DEFAULTS.maxMessageBytes),
    ...(oauth ? { authProvider: oauth.authProvider } : {}),
    eventSourceInit: {
      fetch: boundedFetch(MCP_DEFAULTS.maxMessageBytes, (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
      ),
    },
  });
  return openSession(remoteHandle(transport, 'sse'), client, options);
}

/**
 * Connects to a remote server: streamable HTTP, SSE, WebSocket, or (no type) streamable HTTP
 * first and SSE when the server answers the POST with a 4xx, as the MCP spec advises.
 */
export async function openRemoteSession(
  server: string,
  config: McpRemoteServerConfig,
  options: SessionOpenOptions,
  auth?: McpAuth,
): Promise<McpSession> {
  const headers = remoteHeaders(server, config);
  const url = new URL(config.url);
  if (config.type === 'websocket') {
    const transport = new WebSocketClientTransport(url, headers);
    return openSession(remoteHandle(transport, 'websocket'), config.client, options);
  }
  // OAuth for HTTP and SSE v1 sessions, unless the config sends its own Authorization header
  const oauth =
    auth && config.client !== 'v2' && !hasAuthorization(headers)
      ? await prepareRemoteAuth(auth, server, config.url, boundedFetch(MCP_DEFAULTS.maxMessageBytes))
      : undefined;
  const fail = (error: unknown): unknown => explain(oauth ? oauth.explain(error) : error);
  if (config.type === 'sse') {
    try {
      return await openSse(url, headers, config.client, options, oauth);
    } catch (error) {
      throw fail(error);
    }
  }
  if (config.client === 'v2') {
    const { openV2HttpSession } = await loadV2();
    try {
      return await openV2HttpSession(url, headers, options);
    } catch (error) {
      // no SSE fallback here: a legacy SSE server is named with `type: "sse"`
      throw explain(error);
    }
  }
  try {
    return await openHttp(url, headers, options, oauth);
  } catch (error) {
    if (config.type === 'http' || !shouldFallBackToSse(error)) throw fail(error);
    try {
      return await openSse(url, headers, config.client, options, oauth);
    } catch (sseError) {
      throw fail(sseError);
    }
  }
}
