// A real HTTP server on 127.0.0.1 for the tests that run curl against it.
import { type RequestListener, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A started server: the port it listens on, and how to stop it. */
export interface LoopbackServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Starts an HTTP server on 127.0.0.1 at a free port. */
export async function startLoopbackServer(listener: RequestListener): Promise<LoopbackServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
