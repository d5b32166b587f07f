import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo, isIPv6 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type HttpAccess, accessRefusal } from './http-access.js';
import { openingError } from './initialize-check.js';
import { refuseInvalidParams } from './params-guard.js';

const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The JSON-RPC code MCP uses for a cancelled request (LSP's RequestCancelled). */
const REQUEST_CANCELLED = -32800;
/**
 * Sessions kept at once. Clients that go away without ending their session (an editor that
 * restarts) would otherwise keep a server each forever; past the limit the least recently used
 * session is closed, and its client, if it comes back, gets 404 and starts a new one (as the
 * streamable HTTP transport says it must).
 */
export const MAX_HTTP_SESSIONS = 100;

/** A running streamable-HTTP endpoint. */
export interface HttpGateway {
  /**
   * The URL a client on this machine uses, with the port actually bound. Bound to every interface
   * (`0.0.0.0`, `::`), that is the loopback address: no client can connect to `0.0.0.0`.
   */
  readonly url: string;
  /**
   * Bound to every interface: the URLs of this machine's other addresses (for other machines);
   * undefined when bound to one address.
   */
  readonly interfaceUrls: readonly string[] | undefined;
  close(): Promise<void>;
}

function jsonRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  code = -32000,
  id: string | number | null = null,
): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}

/** A request body past {@link MAX_BODY_BYTES}: answered 413 once it has been read to its end. */
class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // the rest is read and dropped, not left unread: an answer before the body ends breaks the
    // connection under the client, whose next request on it then fails ("fetch failed")
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
    else chunks.length = 0;
  }
  if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
  return Buffer.concat(chunks).toString('utf8');
}

function isJson(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').toLowerCase().includes('application/json');
}

/**
 * Cancels the requests of one POST when its client hangs up before the answers were written (a
 * closed tab, a client's own timeout): the MCP server gets `notifications/cancelled` for each, as
 * if the client had sent it, so the call's signal aborts (a command is stopped, an MCP server's
 * call cancelled) instead of running on to its deadline with nobody waiting for it.
 */
function cancelWhenAbandoned(
  transport: StreamableHTTPServerTransport,
  res: ServerResponse,
  body: unknown,
): void {
  const ids = (Array.isArray(body) ? body : [body]).flatMap((message) =>
    message !== null &&
    typeof message === 'object' &&
    typeof (message as { method?: unknown }).method === 'string' &&
    ['string', 'number'].includes(typeof (message as { id?: unknown }).id)
      ? [(message as { id: string | number }).id]
      : [],
  );
  if (ids.length === 0) return;
  res.once('close', () => {
    if (res.writableFinished) return;
    for (const requestId of ids)
      transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason: 'the HTTP client disconnected before the answer' },
      });
    // The SDK server sends no answer to a cancelled request, and the transport keeps each
    // request's entry (id -> response stream) until an answer goes out: one entry per abandoned
    // call for the life of the session. Answering for the client that left releases it (the
    // transport finds no stream to write to and drops the entries).
    for (const requestId of ids)
      void transport
        .send({
          jsonrpc: '2.0',
          id: requestId,
          error: { code: REQUEST_CANCELLED, message: 'the HTTP client disconnected before the answer' },
        })
        .catch(() => {});
  });
}

/**
 * Serves MCP over streamable HTTP at `/mcp`: one gateway server per client session, every
 * request with the bearer token and without a browser `Origin` that is not allowed (see
 * {@link accessRefusal}), DNS rebinding protection on (only the bound host and loopback names
 * are accepted in `Host`).
 */
export async function startHttpGateway(options: {
  host: string;
  port: number;
  createServer: () => Server;
  access: HttpAccess;
  /** Where the token comes from, for the 401 message (`the token in TOOLPLANE_GATEWAY_TOKEN ...`). */
  tokenSource: string;
}): Promise<HttpGateway> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  let closed = false;
  let allowedHosts: string[] = [];
  const http = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (error instanceof BodyTooLarge && !res.headersSent)
        jsonRpcError(
          res,
          413,
          'request body exceeds 4 MiB, the most the gateway reads: send smaller requests (put large data in a file the tools read)',
          -32600,
        );
      else if (!res.headersSent) jsonRpcError(res, 400, `bad request: ${(error as Error).message}`);
      else res.end();
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = accessRefusal(req, options.access, options.tokenSource);
    if (refusal) {
      if (refusal.status === 401) res.setHeader('www-authenticate', 'Bearer realm="toolplane"');
      // the body is not read: the connection closes after the answer instead
      res.setHeader('connection', 'close');
      req.resume();
      return jsonRpcError(res, refusal.status, refusal.message);
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/mcp') return jsonRpcError(res, 404, 'not found: the MCP endpoint is /mcp');
    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = typeof sessionHeader === 'string' ? sessionHeader : undefined;
    const existing = sessionId ? sessions.get(sessionId) : undefined;
    if (existing) {
      // most recently used last: the first entry is the one to close when there are too many
      sessions.delete(sessionId as string);
      sessions.set(sessionId as string, existing);
      if (req.method !== 'POST' || !isJson(req)) return existing.transport.handleRequest(req, res);
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readBody(req));
      } catch (error) {
        if (error instanceof BodyTooLarge) throw error;
        return jsonRpcError(res, 400, `Parse error: ${(error as Error).message}`, -32700);
      }
      cancelWhenAbandoned(existing.transport, res, parsed);
      return existing.transport.handleRequest(req, res, parsed);
    }
    if (sessionId) return jsonRpcError(res, 404, 'unknown session: start a new one with initialize');
    if (req.method !== 'POST') return jsonRpcError(res, 400, 'no session: send initialize first');
    const text = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      // JSON-RPC's own code for a body that is not JSON, as the SDK answers inside a session
      return jsonRpcError(res, 400, `Parse error: ${(error as Error).message}`, -32700);
    }
    // a malformed initialize is told what is wrong with it, not that it has no session
    const opening = openingError(body);
    if (opening) return jsonRpcError(res, 400, opening.message, opening.code, opening.id);
    const server = options.createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
        for (const [oldId, oldest] of sessions) {
          if (sessions.size <= MAX_HTTP_SESSIONS) break;
          sessions.delete(oldId);
          void oldest.transport.close().catch(() => {});
        }
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close().catch(() => {});
    };
    await server.connect(transport);
    refuseInvalidParams(transport);
    try {
      await transport.handleRequest(req, res, body);
    } finally {
      // The transport may refuse the request before a session opens (an Accept without
      // text/event-stream: 406, a body that is not JSON: 415, a foreign Host: 403), and the
      // gateway may have closed meanwhile: then nothing will ever use or close this server,
      // which holds a listener on the orchestrator. Close it now.
      if (transport.sessionId === undefined || closed) void transport.close().catch(() => {});
    }
  };
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  const bracketed = (host: string): string => (host.includes(':') ? `[${host}]` : host);
  const everyInterface = address.address === '0.0.0.0' || address.address === '::';
  // a client cannot connect to 0.0.0.0 or ::; on this machine it uses the loopback address
  const hostForUrl = everyInterface
    ? address.address === '::'
      ? '[::1]'
      : '127.0.0.1'
    : bracketed(address.address);
  allowedHosts = [
    `${bracketed(address.address)}:${address.port}`,
    `${hostForUrl}:${address.port}`,
    `localhost:${address.port}`,
    `127.0.0.1:${address.port}`,
  ];
  const interfaceUrls: string[] = [];
  // bound to every interface (0.0.0.0, ::): no client sends that as its Host, so the addresses of
  // this machine's interfaces are accepted (names still are not: that is the rebinding protection)
  if (everyInterface)
    for (const entries of Object.values(networkInterfaces()))
      for (const entry of entries ?? []) {
        allowedHosts.push(`${bracketed(entry.address)}:${address.port}`);
        // a link-local IPv6 address needs a zone (%eth0) a URL cannot carry well: left out
        const usable = address.address === '::' || entry.family === 'IPv4';
        if (!entry.internal && usable && !entry.address.startsWith('fe80:'))
          interfaceUrls.push(`http://${bracketed(entry.address)}:${address.port}/mcp`);
      }
  return {
    url: `http://${hostForUrl}:${address.port}/mcp`,
    interfaceUrls: everyInterface ? interfaceUrls : undefined,
    async close() {
      closed = true;
      for (const { transport } of [...sessions.values()]) await transport.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * What is wrong with an `--http` value {@link parseHostPort} refused, when it can tell: an IPv6
 * address without brackets (`::1:0` is `[::1]:0`; `::1` alone is `[::1]:PORT`), a host without
 * a port, a port past 65535.
 */
export function hostPortProblem(value: string): string | undefined {
  if (!value.startsWith('[') && (value.match(/:/g) ?? []).length >= 2) {
    const last = value.lastIndexOf(':');
    const head = value.slice(0, last);
    const tail = value.slice(last + 1);
    if (/^\d{1,5}$/.test(tail) && isIPv6(head))
      return `an IPv6 address goes in brackets: write --http [${head}]:${tail}`;
    if (isIPv6(value)) return `an IPv6 address goes in brackets: write --http [${value}]:PORT`;
    return undefined;
  }
  const port = /:(\d+)$/.exec(value)?.[1];
  if (port !== undefined && Number(port) > 65535) return `the port must be 0 to 65535, got ${port}`;
  if (value !== '' && !/:[^\]]*$/.test(value) && !/^\d+$/.test(value))
    return `give the port too: write --http ${value}:PORT (port 0 picks a free one)`;
  return undefined;
}

/** Parses `HOST:PORT` (`[::1]:8808` for IPv6; a bare port means 127.0.0.1). */
export function parseHostPort(value: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(value) ?? /^()()(\d{1,5})$/.exec(value);
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port > 65535) return undefined;
  return { host: match[1] || match[2] || '127.0.0.1', port };
}
