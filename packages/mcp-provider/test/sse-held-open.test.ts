// A streamable HTTP server that answers every request on an event stream and then holds the
// stream open (never ends it): the answer is in, so the client must hang up. Left open, every
// request would keep a connection and a reader for as long as the server liked.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { eventLog, waitFor } from './helpers/index.js';

interface HeldOpenServer {
  readonly url: string;
  /** POST streams still open. */
  open(): number;
  /** POST streams answered so far. */
  answered(): number;
  close(): Promise<void>;
}

function resultOf(message: { method: string; params?: { protocolVersion?: string } }): unknown {
  if (message.method === 'initialize') {
    return {
      protocolVersion: message.params?.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'held-open', version: '1.0.0' },
    };
  }
  if (message.method === 'tools/list') return { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
  if (message.method === 'tools/call') return { content: [{ type: 'text', text: 'held' }] };
  return {};
}

async function heldOpenServer(): Promise<HeldOpenServer> {
  const streams = new Set<ServerResponse>();
  let answered = 0;
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    streams.add(response);
    response.on('close', () => streams.delete(response));
    response.write(
      `data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: resultOf(message) })}\n\n`,
    );
    answered++;
    // and then nothing: the stream stays open until the client hangs up
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    open: () => streams.size,
    answered: () => answered,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('an event stream held open after its answer', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: every call returns, and the client hangs up each answered stream`, async () => {
      const server = await heldOpenServer();
      const log = eventLog();
      const provider = createMcpProvider(
        'heldopen',
        { type: 'http', url: server.url, client, healthIntervalMs: 0 },
        { onEvent: log.onEvent },
      );
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        for (let i = 0; i < 20; i++) {
          const result = await provider.execute('echo', {}, createToolContext());
          expect(result.ok).toBe(true);
        }
        expect(server.answered()).toBeGreaterThanOrEqual(22);
        // not one stream per request for as long as the server holds them
        expect(await waitFor(() => server.open() === 0, 10_000)).toBe(true);
        // hanging up is not a failure of the stream: nothing is reported, the session serves on
        expect(
          log.events.filter((event) => event.type === 'protocol-error' || event.type === 'server-exited'),
        ).toEqual([]);
        expect((await provider.execute('echo', {}, createToolContext())).ok).toBe(true);
      } finally {
        await provider.close?.();
        await server.close();
      }
    }, 60_000);
  }
});
