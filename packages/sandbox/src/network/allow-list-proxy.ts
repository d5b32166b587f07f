import { rmSync } from 'node:fs';
import {
  type IncomingMessage,
  type Server,
  type ServerResponse,
  createServer,
  request as httpRequest,
} from 'node:http';
import { type Socket, connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkHostAddresses, createAddressPolicy, findAddressDenied } from '@toolplane/address-guard';
import type { NetworkAllowList, NetworkRefusal } from './allow-list-options.js';
import { hostAllowed } from './host-patterns.js';

/** A running allow-list proxy. */
export interface AllowListProxy {
  /** The unix socket it listens on. */
  readonly socketPath: string;
  /** Hosts refused since `since` (a `performance.now()` value), for a command's notes. */
  refusedSince(since: number): string[];
  close(): Promise<void>;
}

interface Target {
  readonly host: string;
  readonly port: number;
}

function parseAuthority(authority: string, defaultPort: number): Target | undefined {
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(authority);
  if (!match?.[1]) return undefined;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  return Number.isInteger(port) && port > 0 && port < 65536 ? { host: match[1], port } : undefined;
}

/**
 * Starts the HTTP proxy that is a sandbox's only way out: `CONNECT host:port` (HTTPS and any
 * TLS) and absolute-URI HTTP requests reach a host only when it is on the allow-list, on an
 * allowed port, and every address it resolves to is public (or in `allowedRanges`): a listed
 * name that resolves to a private, loopback, link-local or metadata address is refused. The
 * proxy connects to the address it checked, so a second DNS answer cannot differ. Each
 * refusal is answered 403 with the reason, reported to `onRefused` and kept for the notes.
 */
export async function startAllowListProxy(
  socketPath: string,
  options: NetworkAllowList,
): Promise<AllowListProxy> {
  const policy = createAddressPolicy({
    allowedRanges: options.allowedRanges ?? [],
    label: 'network.allowedRanges',
  });
  const ports = new Set(options.ports ?? [80, 443]);
  const refusals: { at: number; refusal: NetworkRefusal }[] = [];
  const sockets = new Set<Socket>();

  const refuse = (refusal: NetworkRefusal): string => {
    refusals.push({ at: performance.now(), refusal });
    if (refusals.length > 1000) refusals.shift();
    options.onRefused?.(refusal);
    const why =
      refusal.reason === 'not-allowed'
        ? 'is not on the sandbox network allow-list'
        : refusal.reason === 'address-denied'
          ? `resolves to ${refusal.address}, a non-public address`
          : refusal.reason === 'unresolvable'
            ? 'does not resolve'
            : 'is not a valid proxy request';
    return `toolplane sandbox proxy: ${refusal.host}:${refusal.port} ${why}\n`;
  };

  /** The address to connect to, or the refusal text. */
  const check = async (target: Target): Promise<{ address: string } | { refused: string }> => {
    if (!hostAllowed(target.host, options.allow) || !ports.has(target.port)) {
      return { refused: refuse({ host: target.host, port: target.port, reason: 'not-allowed' }) };
    }
    try {
      return { address: await checkHostAddresses(target.host, { policy }) };
    } catch (error) {
      const denied = findAddressDenied(error);
      return {
        refused: refuse(
          denied
            ? { host: target.host, port: target.port, reason: 'address-denied', address: denied.address }
            : { host: target.host, port: target.port, reason: 'unresolvable' },
        ),
      };
    }
  };

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    // A sandboxed client may hang up at any point: that ends its exchange, nothing else.
    request.on('error', () => response.destroy());
    response.on('error', () => request.destroy());
    void (async () => {
      let url: URL;
      try {
        url = new URL(request.url ?? '');
        if (url.protocol !== 'http:') throw new Error('not http');
      } catch {
        response.writeHead(400).end(refuse({ host: request.url ?? '', port: 0, reason: 'bad-request' }));
        return;
      }
      const target = {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port === '' ? 80 : Number(url.port),
      };
      const verdict = await check(target);
      if ('refused' in verdict) {
        response.writeHead(403, { 'content-type': 'text/plain' }).end(verdict.refused);
        return;
      }
      const headers = { ...request.headers };
      delete headers['proxy-connection'];
      delete headers['proxy-authorization'];
      const upstream = httpRequest(
        {
          host: verdict.address,
          port: target.port,
          method: request.method,
          path: `${url.pathname}${url.search}`,
          headers,
        },
        (answer) => {
          answer.on('error', () => response.destroy());
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
    })();
  });

  server.on('clientError', (_error, socket) => socket.destroy());
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    void (async () => {
      const target = parseAuthority(request.url ?? '', 443);
      if (!target) {
        client.end(
          `HTTP/1.1 400 Bad Request\r\n\r\n${refuse({ host: request.url ?? '', port: 0, reason: 'bad-request' })}`,
        );
        return;
      }
      const verdict = await check(target);
      if ('refused' in verdict) {
        client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${verdict.refused}`);
        return;
      }
      const upstream = connect(target.port, verdict.address, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    })();
  });

  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });

  return {
    socketPath,
    refusedSince(since) {
      return [...new Set(refusals.filter((entry) => entry.at >= since).map((entry) => entry.refusal.host))];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(socketPath, { force: true });
    },
  };
}
