import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the scripted model received. */
export interface ScriptedRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** A loopback HTTP server that answers an LLM API's requests from a script. */
export interface ScriptedServer {
  readonly url: string;
  readonly requests: ScriptedRequest[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 whose answers come from `respond` (called with the request and
 * how many requests came before it). A fake of a hosted model only: everything else is real.
 */
export async function startScriptedServer(
  respond: (request: ScriptedRequest, turn: number) => unknown,
): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: ScriptedRequest = { path: req.url ?? '/', body: text ? JSON.parse(text) : {} };
      requests.push(request);
      let answer: unknown;
      try {
        answer = respond(request, requests.length - 1);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${port}`, requests, close, [Symbol.asyncDispose]: close };
}
