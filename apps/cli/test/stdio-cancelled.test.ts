import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { describe, expect, it } from 'vitest';
import { trackPendingRequests } from '../src/gateway/inflight.js';
import { type HeldCalls, holdCallsUntilCancelled, initializeBody, waitFor } from './helpers.js';

// `serve mcp --stdio` tracks the requests it has not answered, so a client that closes stdin
// gets the answers to what it already sent (up to 10 s). A request the client cancelled
// (notifications/cancelled) is never answered (the SDK server drops its answer, as MCP says),
// so it stops being pending when cancelled: kept, it would be one entry per cancelled call for
// the life of the session, and a client that closes stdin after cancelling would wait the whole
// 10 s grace for answers that cannot come. The gateway's server runs here over the SDK's linked
// in-memory transports.

/** Polls `predicate` every 5 ms for up to 10 s. */
const until = (predicate: () => boolean): Promise<boolean> => waitFor(predicate, 10_000, 5);

describe('serve mcp --stdio: calls the client cancels', () => {
  it('stop being pending, so nothing waits for their answers', async () => {
    const [client, gateway] = InMemoryTransport.createLinkedPair();
    const held: HeldCalls = { started: 0, cancelled: 0 };
    const server = new Server({ name: 'waits', version: '1' }, { capabilities: { tools: {} } });
    holdCallsUntilCancelled(server, held);
    await server.connect(gateway);
    const pending = trackPendingRequests(gateway);
    const answered: unknown[] = [];
    client.onmessage = (message) => {
      answered.push(message);
    };
    await client.start();
    await client.send(JSON.parse(initializeBody(0)));
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(await until(() => answered.length === 1)).toBe(true);
    const calls = 100;
    for (let id = 1; id <= calls; id++) {
      await client.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'w', arguments: {} } });
      expect(await until(() => held.started === id)).toBe(true);
      await client.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'the user pressed stop' },
      });
    }
    expect(await until(() => held.cancelled === calls)).toBe(true);
    expect(pending.size).toBe(0);
    // a request that is answered still counts until its answer goes out
    await client.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
    expect(await until(() => answered.length === 2)).toBe(true);
    expect(pending.size).toBe(0);
    await server.close();
  });
});
