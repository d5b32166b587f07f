import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { ServerPrincipal } from '../auth/principal.js';
import { callTool } from './call-tool.js';
import type { RouteDeps } from './deps.js';
import { toMcpResult, toMcpTools } from './mcp-result.js';

/** How the lean handler answered: a JSON-RPC response (200) or an accepted notification (202). */
export type LeanAnswer = { readonly status: 200; readonly body: unknown } | { readonly status: 202 };

/** The request headers the lean handler checks, as the SDK's transport checks them. */
export interface LeanHeaders {
  readonly accept: string | undefined;
  readonly contentType: string | undefined;
  readonly protocolVersion: string | undefined;
}

type JsonRpcId = string | number;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether the transport would take these headers and go on to the message: both media types
 * accepted, a JSON body, a protocol version it supports (or none). Anything else is the SDK's
 * to refuse, in its own words.
 */
function headersPass(headers: LeanHeaders): boolean {
  const accept = headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const media = (headers.contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (media !== 'application/json') return false;
  const version = headers.protocolVersion;
  return version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * `/mcp` without building an MCP server per request, for what stateless clients send most:
 * `tools/call`, `tools/list`, `ping` and notifications, each a single message. The calls and
 * the list go through the same runtime and grant gate as the SDK-built server's handlers.
 * Answers `undefined` for anything else (initialize, batches, other methods, odd messages or
 * headers), which the SDK's server then handles.
 */
export async function answerLean(
  deps: RouteDeps,
  principal: ServerPrincipal,
  headers: LeanHeaders,
  message: unknown,
  signal: AbortSignal,
): Promise<LeanAnswer | undefined> {
  if (!headersPass(headers) || !isObject(message) || message.jsonrpc !== '2.0') return undefined;
  const { method, params } = message;
  if (typeof method !== 'string' || (params !== undefined && !isObject(params))) return undefined;
  if (!('id' in message)) {
    // a notification: the stateless server has nothing to do with one
    if (!method.startsWith('notifications/') || 'result' in message || 'error' in message) return undefined;
    return { status: 202 };
  }
  const id = message.id;
  if (!isId(id)) return undefined;
  const answer = (result: unknown): LeanAnswer => ({ status: 200, body: { result, jsonrpc: '2.0', id } });
  try {
    return await answerRequest(deps, principal, method, params, signal, answer);
  } catch (error) {
    // as the SDK's server answers a handler that throws: a JSON-RPC error, HTTP 200
    const failure = error as { code?: unknown; message?: string; data?: unknown };
    return {
      status: 200,
      body: {
        jsonrpc: '2.0',
        id,
        error: {
          code: Number.isSafeInteger(failure.code) ? failure.code : INTERNAL_ERROR,
          message: failure.message ?? 'Internal error',
          ...(failure.data !== undefined ? { data: failure.data } : {}),
        },
      },
    };
  }
}

const INTERNAL_ERROR = -32603;

async function answerRequest(
  deps: RouteDeps,
  principal: ServerPrincipal,
  method: string,
  params: Record<string, unknown> | undefined,
  signal: AbortSignal,
  answer: (result: unknown) => LeanAnswer,
): Promise<LeanAnswer | undefined> {
  switch (method) {
    case 'ping':
      return answer({});
    case 'tools/list': {
      if (params?.cursor !== undefined && typeof params.cursor !== 'string') return undefined;
      const runtime = await deps.runtimes.get(principal.tenantId);
      return answer({ tools: toMcpTools(runtime.listTools(principal)) });
    }
    case 'tools/call': {
      if (!params || typeof params.name !== 'string') return undefined;
      const args = params.arguments;
      if (args !== undefined && !isObject(args)) return undefined;
      if (params._meta !== undefined && !isObject(params._meta)) return undefined;
      return answer(toMcpResult(await callTool(deps, principal, params.name, args ?? {}, { signal })));
    }
    default:
      return undefined;
  }
}
