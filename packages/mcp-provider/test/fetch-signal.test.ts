// The remote transports give every fetch of a session one long-lived signal (the transport's
// own): fetch adds an abort listener to the signal it gets and keeps it until the request is
// garbage collected, so a session would collect one per request (Node warns past 1500).
import { getEventListeners } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedFetch } from '../src/transport/bounded-fetch.js';

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/stream') {
        // an event stream that answers request 1, then stays open (the fetch hangs it up)
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n\n`);
        return;
      }
      if (request.url === '/endless') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(': open\n\n');
        return;
      }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const POST = { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) };

describe('boundedFetch and the caller signal', () => {
  it('leaves no listener per request on a signal that every request of a session shares', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    const session = new AbortController();
    const fetchBounded = boundedFetch(1024 * 1024);
    try {
      for (let round = 0; round < 400; round++) {
        const [read, cancelled, answered] = await Promise.all([
          fetchBounded(`${url}/json`, { ...POST, signal: session.signal }),
          fetchBounded(`${url}/json`, { ...POST, signal: session.signal }),
          fetchBounded(`${url}/stream`, { ...POST, signal: session.signal }),
        ]);
        await read.text();
        await cancelled.body?.cancel();
        await answered.text(); // ends once request 1 has its answer
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(getEventListeners(session.signal, 'abort').length).toBeLessThanOrEqual(1);
      expect(warnings.filter((name) => name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 120_000);

  it('still ends a request in flight, and its body, when the shared signal aborts', async () => {
    const session = new AbortController();
    const fetchBounded = boundedFetch(1024 * 1024);
    const response = await fetchBounded(`${url}/endless`, { ...POST, signal: session.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const pending = reader.read();
    session.abort(new Error('session closed'));
    await expect(pending).rejects.toThrow('session closed');
    await expect(fetchBounded(`${url}/json`, { ...POST, signal: session.signal })).rejects.toThrow(
      'session closed',
    );
  });
});
