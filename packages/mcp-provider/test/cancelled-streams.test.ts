// A call given up on (cancelled, or past its timeout) over streamable HTTP: the client sends
// notifications/cancelled, and a server that follows the spec never answers that request, so
// the event stream that was to carry the answer is not ended by the server (the SDK's own server
// holds it until the session ends). The client hangs it up; otherwise each call given up on would
// keep a connection open for as long as the session lasts.
import { type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { waitFor } from './helpers/index.js';

/** Answer streams of `tools/call` the server holds open (it never answers a call). */
const held = new Set<ServerResponse>();
let url = '';
const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (request.method !== 'POST') {
    response.writeHead(request.method === 'DELETE' ? 200 : 405).end();
    return;
  }
  const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (message.id === undefined) {
    response.writeHead(202).end();
    return;
  }
  if (message.method === 'tools/call') {
    // the answer would come on this stream; a call given up on is never answered
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(': accepted\n\n');
    held.add(response);
    response.on('close', () => held.delete(response));
    return;
  }
  const result =
    message.method === 'initialize'
      ? {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'holding', version: '1.0.0' },
        }
      : message.method === 'tools/list'
        ? { tools: [{ name: 'hang', inputSchema: { type: 'object' } }] }
        : {};
  response
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe.each(['v1', 'v2'] as const)('calls given up on over streamable HTTP (client %s)', (client) => {
  it('leave no answer stream open: cancelled at once, cancelled later, or timed out', async () => {
    const provider = createMcpProvider('holding', {
      type: 'http',
      url,
      client,
      requestTimeoutMs: 400,
      healthProbe: 'none',
    });
    try {
      await provider.start?.(AbortSignal.timeout(20_000));
      const calls = Array.from({ length: 12 }, (_, index) => {
        const caller = new AbortController();
        // 0 ms: the cancel may go out before the stream's headers are in; 4 of them time out
        if (index < 8) setTimeout(() => caller.abort(), (index % 4) * 50);
        return provider.execute('hang', {}, createToolContext({ signal: caller.signal }));
      });
      const codes = (await Promise.all(calls)).map((result) => (result.ok ? 'ok' : result.error.code));
      expect(codes.filter((code) => code === 'CANCELLED')).toHaveLength(8);
      expect(codes.filter((code) => code === 'TIMEOUT')).toHaveLength(4);
      expect(await waitFor(() => held.size === 0, 10_000)).toBe(true);
    } finally {
      await provider.close?.();
    }
  }, 60_000);
});
