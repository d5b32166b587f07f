import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { useCleanups } from './fixtures.js';

/** A loopback HTTP server that tells how many connections it has open and which paths it was asked. */
export interface CountedServer {
  readonly origin: string;
  /** Request targets in the order their headers arrived (before any body). */
  readonly paths: string[];
  /** Connections open now, as the server counts them. */
  connections(): Promise<number>;
}

/**
 * Starts a node:http server on 127.0.0.1 port 0 whose handler sees each request as soon as its
 * headers arrive; torn down through `defer` (open responses cut).
 */
export async function countedServer(
  defer: ReturnType<typeof useCleanups>['defer'],
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<CountedServer> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url ?? '');
    request.resume();
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    connections: () =>
      new Promise((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
  };
}

/** Polls `condition` every 10 ms, at most `tries` times; whether it came true. */
export async function eventually(condition: () => boolean | Promise<boolean>, tries = 500): Promise<boolean> {
  for (let attempt = 0; attempt < tries; attempt++) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}
