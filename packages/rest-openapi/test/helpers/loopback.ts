import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it: the raw request target, not a normalized URL. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  /** Header names and values as sent, in pairs (`headers` loses a header named `__proto__`). */
  readonly rawHeaders: readonly string[];
  readonly body: string;
  /** The body's exact bytes (`body` is them read as UTF-8). */
  readonly bytes: Buffer;
  /** Client port of the connection, to see connection reuse. */
  readonly remotePort: number;
}

/** A loopback HTTP server on 127.0.0.1 that records every request it gets. */
export interface Loopback {
  readonly origin: string;
  readonly host: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => unknown;

/** Starts a loopback server on port 0; `close()` also cuts open (never-ending) responses. */
export async function startLoopback(handler: Handler): Promise<Loopback> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const recorded: RecordedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        rawHeaders: incoming.rawHeaders,
        body: bytes.toString('utf8'),
        bytes,
        remotePort: incoming.socket.remotePort ?? 0,
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, response)).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(599);
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON. */
export function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  response.end(body);
}

/** Answers with the request echoed as JSON (method, url, headers, body). */
export function echo(request: RecordedRequest, response: ServerResponse): void {
  sendJson(response, 200, {
    method: request.method,
    url: request.url,
    headers: request.headers,
    body: request.body,
  });
}
