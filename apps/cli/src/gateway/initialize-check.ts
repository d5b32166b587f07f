import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { SCHEMAS, describeIssues } from './params-guard.js';

/** A JSON-RPC error to answer a body that opens no session, with the id it answers. */
export interface OpeningError {
  readonly id: string | number | null;
  readonly code: number;
  readonly message: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is string | number =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/**
 * Why the first body of a would-be session is not an `initialize` request the gateway can open a
 * session with: JSON-RPC's `-32600 Invalid Request` (no `"jsonrpc": "2.0"`, no usable `id`, a
 * batch, not an object) or `-32602 Invalid params` naming the fields. A well-formed request of
 * another method gets the gateway's "no session" answer (`-32000`), with its id. Undefined for
 * an `initialize` request that opens a session. (The SDK's `isInitializeRequest` does not look
 * at `jsonrpc` or `id`, and its transport then answered `-32700 Parse error` for a body that
 * parsed.)
 */
export function openingError(body: unknown): OpeningError | undefined {
  const invalid = (message: string, id: string | number | null = null): OpeningError => ({
    id,
    code: ErrorCode.InvalidRequest,
    message: `Invalid Request: ${message}`,
  });
  if (Array.isArray(body))
    return body.some((entry) => isRecord(entry) && entry.method === 'initialize')
      ? invalid('initialize must be sent alone, not in a batch')
      : invalid('no session: send initialize first, alone, not in a batch');
  if (!isRecord(body) || typeof body.method !== 'string')
    return invalid('the body is not a JSON-RPC request (an object with "jsonrpc", "id" and "method")');
  const id = isId(body.id) ? body.id : null;
  if (body.jsonrpc !== '2.0') return invalid('a JSON-RPC request needs "jsonrpc": "2.0"', id);
  if (body.id === undefined || body.id === null)
    return invalid(`${body.method} is a request and needs an id (a string or a number)`);
  if (id === null) return invalid('the id must be a string or a number');
  if (body.method !== 'initialize') return { id, code: -32000, message: 'no session: send initialize first' };
  const parsed = SCHEMAS.get('initialize')?.safeParse(body);
  if (parsed?.success !== false) return undefined;
  return {
    id,
    code: ErrorCode.InvalidParams,
    message: `Invalid params: ${describeIssues(parsed?.error?.issues ?? [])}`,
  };
}
