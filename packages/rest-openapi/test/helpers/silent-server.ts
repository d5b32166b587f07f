import diagnostics from 'node:diagnostics_channel';
import { type Socket, createServer } from 'node:net';
import type { useCleanups } from './fixtures.js';

type Defer = ReturnType<typeof useCleanups>['defer'];

/**
 * A TCP server on loopback that accepts and never speaks, so a TLS handshake with it hangs; it
 * reads (and drops) what it gets, so it sees a connection end. Its port and open sockets.
 */
export async function silentServer(defer: Defer): Promise<{ port: number; open: Set<Socket> }> {
  const open = new Set<Socket>();
  const silent = createServer((socket) => {
    open.add(socket);
    socket.resume();
    socket.on('error', () => undefined);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  defer(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        silent.close(() => resolve());
      }),
  );
  return { port: (silent.address() as { port: number }).port, open };
}

/**
 * How many connections to `port` undici failed to make (its connect timeout among them) from now
 * on, heard on its diagnostics channel; other tests in this process may be connecting elsewhere.
 */
export function countConnectErrors(defer: Defer, port: number): () => number {
  const channel = diagnostics.channel('undici:client:connectError');
  let count = 0;
  const listener = (message: unknown): void => {
    const params = (message as { connectParams?: { port?: unknown } }).connectParams;
    if (String(params?.port) === String(port)) count++;
  };
  channel.subscribe(listener);
  defer(() => {
    channel.unsubscribe(listener);
  });
  return () => count;
}
