import { type Socket, createServer } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';

const { provider, defer } = useCleanups();

describe('connect timeout', () => {
  it('gives TIMEOUT when the TLS handshake never completes', async () => {
    // a TCP server that accepts and then says nothing: the TLS handshake (part of connecting) hangs
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    defer(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const port = (silent.address() as { port: number }).port;
    const rest = provider(
      {
        get: {
          description: 'd',
          method: 'GET',
          url: `https://127.0.0.1:${port}/x`,
          parametersSchema: objectSchema({}),
        },
      },
      { connectTimeoutMs: 300 },
    );
    const result = await rest.execute('get', {}, createToolContext());
    expect(result.ok === false && result.error.code).toBe('TIMEOUT');
    expect(result.ok === false && result.error.message).toContain('connecting');
  });
});
