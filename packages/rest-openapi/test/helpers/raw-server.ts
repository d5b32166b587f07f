import { type Socket, createServer } from 'node:net';
import type { useCleanups } from './fixtures.js';

/**
 * A TCP server on loopback that answers every request with these raw bytes, then closes; torn
 * down through `defer`. Returns its origin.
 */
export async function rawServer(
  defer: ReturnType<typeof useCleanups>['defer'],
  answer: string,
): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** Answers that are not valid HTTP/1.1, by what is wrong with them. */
export const BROKEN_ANSWERS: Record<string, string> = {
  'garbage in a chunk size': 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  'no status line': 'garbage\r\n\r\n',
  'a negative content-length': 'HTTP/1.1 200 OK\r\ncontent-length: -5\r\n\r\nok',
  'content-length and chunked together':
    'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
  'headers of 200 KB': `HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(200_000)}\r\ncontent-length: 2\r\n\r\nok`,
  'an unsolicited 100 Continue':
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
};
