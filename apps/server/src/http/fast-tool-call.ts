import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Scrubber } from '@toolplane/scrubber';
import { resolveAuthorization } from '../auth/resolve-key.js';
import type { ServerPrincipal } from '../auth/principal.js';
import type { AnsweredRequest, LogSink } from '../observe/request-log.js';
import { callTool, statusOfResult } from '../routes/call-tool.js';
import type { RouteDeps } from '../routes/deps.js';
import { CallBody } from '../routes/tools-routes.js';
import { answerError } from './error-answer.js';
import { type BodyLimits, readJsonBody } from './read-json-body.js';
import { schemaError } from './schema-error.js';

/** The route pattern the request log and the metrics name these calls by, as hono names it. */
const ROUTE = '/v1/tools/:name/call';
/** The plain form of the call path: no query, no percent-escapes, a name within its bounds. */
const CALL_PATH = /^\/v1\/tools\/([A-Za-z0-9_.~-]{1,200})\/call$/;
/** Bodies this route takes itself; other types (and their errors) are left to the app. */
const JSON_TYPE = /^application\/json\s*(?:;.*)?$/i;

/** What the fast route needs beyond the routes' dependencies. */
export interface FastCallDeps extends RouteDeps {
  readonly scrubber: Scrubber;
  readonly log: LogSink;
  readonly limits: BodyLimits;
  readonly logged: (request: AnsweredRequest) => void;
}

/**
 * Whether a request is a plain JSON call this route answers: `POST /v1/tools/{name}/call`,
 * no query (`?stream=1` and the like go to the app), a JSON body, uncompressed, no
 * event-stream wanted. Decided on the request line and headers alone, before any body is read.
 */
function isPlainCall(request: IncomingMessage): string | undefined {
  if (request.method !== 'POST') return undefined;
  const match = CALL_PATH.exec(request.url ?? '');
  if (!match) return undefined;
  const headers = request.headers;
  if (!JSON_TYPE.test(headers['content-type'] ?? '')) return undefined;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity' && encoding.trim() !== '')
    return undefined;
  const accept = headers.accept;
  if (accept !== undefined && /\btext\/event-stream\b/.test(accept)) return undefined;
  return match[1];
}

/** Reads and drops what is left of a body the answer did not need, closing a connection that sends too much. */
function drain(request: IncomingMessage): void {
  if (request.readableEnded || request.destroyed) return;
  let read = 0;
  const close = (): void => {
    clearTimeout(timer);
    request.off('data', count);
    request.socket?.destroySoon?.();
  };
  const count = (chunk: Buffer): void => {
    read += chunk.byteLength;
    if (read > 64 * 1024 * 1024) close();
  };
  const timer = setTimeout(close, 500);
  timer.unref();
  request.on('data', count);
  request.once('end', () => {
    clearTimeout(timer);
    request.off('data', count);
  });
  request.resume();
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function send(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  body: unknown,
  extra?: Readonly<Record<string, string>>,
): void {
  if (response.headersSent || response.destroyed) return;
  // a string goes out in one write with the head (Node joins them); a buffer would need two
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...extra,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
  if (!request.readableEnded) response.once('finish', () => drain(request));
}

/**
 * `POST /v1/tools/{name}/call` served on Node's own request and response, ahead of the app:
 * the same key check, body limits, schema, call (grants, policy, scrubber, accounting), answers
 * and log line as the app's route, without building web requests and responses. Every other
 * request goes to `fallback` (the app).
 */
export function fastToolCalls(deps: FastCallDeps, fallback: RequestListener): RequestListener {
  const serve = async (
    request: IncomingMessage,
    response: ServerResponse,
    name: string,
    started: number,
  ): Promise<void> => {
    let principal: ServerPrincipal | undefined;
    let answer: { status: number; body: unknown; headers?: Readonly<Record<string, string>> };
    try {
      principal = await resolveAuthorization(deps.db, deps.principals, request.headers.authorization);
      const { value } = await readJsonBody(
        { header: (key) => headerOf(request, key), incoming: request },
        deps.limits,
      );
      const parsed = CallBody.safeParse(value);
      if (!parsed.success) throw schemaError(parsed.error.issues);
      const aborted = new AbortController();
      response.once('close', () => {
        if (!response.writableFinished) aborted.abort(new Error('the client closed the connection'));
      });
      const result = await callTool(deps, principal, name, parsed.data.arguments, { signal: aborted.signal });
      answer = { status: statusOfResult(result), body: { result } };
    } catch (error) {
      answer = answerError(error, deps.log, deps.scrubber);
    }
    send(request, response, answer.status, answer.body, answer.headers);
    deps.logged({
      method: 'POST',
      route: ROUTE,
      path: request.url ?? '',
      status: answer.status,
      principal,
      started,
    });
  };
  return (request, response) => {
    const name = isPlainCall(request);
    if (name === undefined) {
      fallback(request, response);
      return;
    }
    void serve(request, response, name, performance.now());
  };
}
