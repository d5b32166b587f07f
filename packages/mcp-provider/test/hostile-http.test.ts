// HTTP servers that misbehave on purpose, on 127.0.0.1: an answer that is an endless event
// stream carrying no response.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { eventLog, tempDirectory, waitFor } from './helpers.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** A server whose every POST is answered with an event stream that never ends nor answers. */
async function endlessStreamServer(): Promise<{
  url: string;
  open: () => number;
  close: () => Promise<void>;
}> {
  const streams = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    streams.add(response);
    let count = 0;
    // bounded: at most 20 000 events per stream, one batch every 5 ms
    const timer = setInterval(() => {
      for (let i = 0; i < 50 && count < 20_000; i++, count++) response.write(`data: not json ${count}\n\n`);
    }, 5);
    timers.add(timer);
    response.on('close', () => {
      clearInterval(timer);
      streams.delete(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    open: () => streams.size,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('an HTTP server that answers with an endless event stream', () => {
  it('fails the start naming the startup timeout, reports the junk coalesced, and leaves no stream open', async () => {
    const server = await endlessStreamServer();
    const log = eventLog();
    const provider = createMcpProvider(
      'endless',
      { type: 'http', url: server.url, startupTimeoutMs: 1500, healthIntervalMs: 0 },
      { runDirectory: run.path, onEvent: log.onEvent },
    );
    try {
      await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: expect.stringMatching(/startupTimeoutMs|1500/),
      });
      await provider.close?.();
      // the client hung up every stream it opened: none is left writing to nobody
      expect(await waitFor(() => server.open() === 0, 10_000)).toBe(true);
      const errors = log.events.filter((event) => event.type === 'protocol-error');
      expect(errors.length).toBeLessThan(40);
    } finally {
      await provider.close?.();
      await server.close();
    }
  });
});
