import diagnostics from 'node:diagnostics_channel';
import { type Socket, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../src/index.js';
import { rejection } from './helpers/bad-input.js';
import { eventually } from './helpers/counted-server.js';
import { useCleanups } from './helpers/fixtures.js';

const { defer } = useCleanups();

/** A TCP server that accepts and never speaks (a TLS handshake with it hangs); its port and open sockets. */
async function silentServer(): Promise<{ port: number; open: Set<Socket> }> {
  const open = new Set<Socket>();
  const silent = createServer((socket) => {
    open.add(socket);
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

/** Connections to `port` undici failed to make (its connect timeout among them) from now on. */
function countConnectErrors(port: number): () => number {
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

describe('a document fetch still connecting', () => {
  it('ends at a cancellation or its fetch timeout without waiting for the connect timeout', async () => {
    const silent = await silentServer();
    const connectErrors = countConnectErrors(silent.port);
    const controller = new AbortController();
    const cancelled = importOpenApi(`https://127.0.0.1:${silent.port}/openapi.json`, {
      signal: controller.signal,
    });
    expect(await eventually(() => silent.open.size === 1)).toBe(true);
    controller.abort();
    expect((await rejection(cancelled)).code).toBe('CANCELLED');
    const timedOut = await rejection(
      importOpenApi(`https://127.0.0.1:${silent.port}/other.json`, { fetchTimeoutMs: 300 }),
    );
    expect(timedOut.code).toBe('TIMEOUT');
    // both settled while their handshakes still hung: they used to wait for undici's connect timeout (10 s)
    expect(connectErrors()).toBe(0);
  }, 30_000);
});
