import { type IncomingHttpHeaders, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback proxy in front of a gateway, and how to stop it. */
export interface TokenProxy {
  /** The proxy's `/mcp` URL, for a client that cannot send headers of its own. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 that adds `authorization` to every request and forwards it to the
 * gateway at `target`, streaming both ways (event streams stay open). A `Host` naming the proxy
 * is rewritten to the gateway's; any other `Host` is forwarded as sent, so the gateway's DNS
 * rebinding check still sees a foreign one. For clients such as the conformance suite, which
 * take a URL and no headers.
 */
export async function startTokenProxy(target: string, authorization: string): Promise<TokenProxy> {
  const upstream = new URL(target);
  let own = '';
  const server: Server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = { ...req.headers, authorization };
    if (req.headers.host === own) headers.host = upstream.host;
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.once('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.once('close', () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  own = `127.0.0.1:${port}`;
  return {
    url: `http://${own}${upstream.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
