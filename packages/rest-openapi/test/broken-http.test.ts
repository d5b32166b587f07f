import { type Socket, createServer } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from './helpers/bad-input.js';
import { useCleanups } from './helpers/fixtures.js';

const { provider, defer } = useCleanups();

/** A TCP server on loopback that answers every request with these raw bytes, then closes. */
async function rawServer(answer: string): Promise<string> {
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

const ANSWERS: Record<string, string> = {
  'garbage in a chunk size': 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  'no status line': 'garbage\r\n\r\n',
  'a negative content-length': 'HTTP/1.1 200 OK\r\ncontent-length: -5\r\n\r\nok',
  'content-length and chunked together':
    'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
  'headers of 200 KB': `HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(200_000)}\r\ncontent-length: 2\r\n\r\nok`,
  'an unsolicited 100 Continue':
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
};

describe('answers that are not valid HTTP/1.1', () => {
  it('fail EXECUTION_FAILED saying the server (or a proxy) is at fault, not that it is unreachable', async () => {
    for (const [what, answer] of Object.entries(ANSWERS)) {
      const origin = await rawServer(answer);
      const result = failure(
        await provider({ a: getTool(`${origin}/a`) }).execute('a', {}, createToolContext()),
      );
      // they used to read "is unreachable", "Headers Overflow Error" or the parser's words alone
      expect(result.error.code, what).toBe('EXECUTION_FAILED');
      expect(result.error.message, what).toContain(`GET ${origin}/a answered`);
      expect(result.error.message, what).toContain('the server or a proxy in between is misbehaving');
      expect(result.error.retryable, what).toBe(false);
    }
  });
});
