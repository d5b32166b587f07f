import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpGateway, startHttpGateway } from '../src/gateway/http.js';
import { type HeldCalls, holdCallsUntilCancelled, initializeBody, waitFor } from './helpers.js';

/** Polls `predicate` every 5 ms for up to 10 s. */
const until = (predicate: () => boolean): Promise<boolean> => waitFor(predicate, 10_000, 5);

// A client that hangs up while its call runs: the gateway cancels the call (it tells the MCP
// server as if the client had sent notifications/cancelled). The SDK then sends no answer for
// that request, and its streamable HTTP transport keeps the request's entry (request id ->
// response stream) until an answer is sent: one entry more per abandoned call, for as long as
// the session lives. This counts that map (the transport's own bookkeeping: no public count
// exists) and the process's timers and sockets over many abandoned calls.

let gateway: HttpGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Entries the session's transport keeps per request (`_requestToStreamMapping`). */
function requestEntries(server: Server): number {
  const transport: unknown = server.transport;
  const inner: unknown = transport && Reflect.get(transport as object, '_webStandardTransport');
  const map: unknown = inner && Reflect.get(inner as object, '_requestToStreamMapping');
  if (!(map instanceof Map))
    throw new Error('the SDK transport has no _requestToStreamMapping: update this test');
  return map.size;
}

describe('serve mcp --http: clients that hang up while their call runs', () => {
  it('cancel each call and leave no entry or timer behind', async () => {
    const held: HeldCalls = { started: 0, cancelled: 0 };
    const servers: Server[] = [];
    gateway = await startHttpGateway({
      host: '127.0.0.1',
      port: 0,
      createServer: () => {
        const server = new Server({ name: 'waits', version: '1' }, { capabilities: { tools: {} } });
        holdCallsUntilCancelled(server, held);
        servers.push(server);
        return server;
      },
    });
    const opened = await fetch(gateway.url, { method: 'POST', headers, body: initializeBody() });
    const session = opened.headers.get('mcp-session-id') ?? '';
    await opened.text();
    expect(session).not.toBe('');
    const inSession = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const [server] = servers;
    if (!server) throw new Error('no server was made for the session');
    const resourcesBefore = process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    const calls = 100;
    for (let id = 1; id <= calls; id++) {
      const client = new AbortController();
      const answer = fetch(gateway.url, {
        method: 'POST',
        headers: inSession,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'w', arguments: {} },
        }),
        signal: client.signal,
      })
        .then((response) => response.body?.getReader().read())
        .catch(() => undefined);
      expect(await until(() => held.started === id)).toBe(true);
      client.abort();
      await answer;
    }
    expect(await waitFor(() => held.cancelled === calls, 10_000)).toBe(true);
    expect(await waitFor(() => requestEntries(server) === 0, 5_000)).toBe(true);
    expect(process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length).toBeLessThanOrEqual(
      resourcesBefore,
    );
    // the session serves on
    const ping = await fetch(gateway.url, {
      method: 'POST',
      headers: inSession,
      body: JSON.stringify({ jsonrpc: '2.0', id: 'ping', method: 'ping' }),
    });
    expect(ping.status).toBe(200);
    expect(await ping.text()).toContain('"id":"ping"');
  });
});
