import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type ToolCallExtra, installCallFastPath } from '../src/gateway/call-fast-path.js';

// The fast path hands each tools/call a CallAbort (no AbortSignal unless one is read). Here a real
// SDK server with the fast path installed gets calls over an in-memory transport, and the handler
// sees how its call was stopped: through `onAbort`, and through `signal` read before or after.

interface Seen {
  reasons: unknown[];
  extra: ToolCallExtra;
  finish: (value: unknown) => void;
}

let closeAll: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeAll?.();
  closeAll = undefined;
});

async function fastPathServer(readSignalFirst: boolean): Promise<{
  send: (message: JSONRPCMessage) => Promise<void>;
  received: JSONRPCMessage[];
  seen: Map<string | number, Seen>;
  closeServer: () => Promise<void>;
}> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
  await server.connect(serverSide);
  const seen = new Map<string | number, Seen>();
  installCallFastPath(server, serverSide, (request, extra) => {
    const id = request.params.name;
    if (readSignalFirst) void extra.signal.aborted;
    return new Promise((resolve) => {
      const entry: Seen = { reasons: [], extra, finish: resolve };
      seen.set(id, entry);
      extra.onAbort?.((reason) => entry.reasons.push(reason));
    });
  });
  const received: JSONRPCMessage[] = [];
  clientSide.onmessage = (message) => received.push(message);
  await clientSide.start();
  closeAll = () => clientSide.close();
  return {
    send: (message) => clientSide.send(message),
    received,
    seen,
    closeServer: () => serverSide.close(),
  };
}

const call = (id: number, name: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const RESULT = { content: [{ type: 'text', text: 'done' }] };

describe.each([false, true])('the fast path (signal read first: %s)', (readSignalFirst) => {
  it('stops a call the client cancels, with its reason, and answers the others', async () => {
    const { send, received, seen } = await fastPathServer(readSignalFirst);
    await send(call(1, 'a'));
    await send(call(2, 'b'));
    await settle();
    await send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'the user pressed stop' },
    });
    await settle();
    const stopped = seen.get('a') as Seen;
    expect(stopped.reasons).toEqual(['the user pressed stop']);
    expect(stopped.extra.signal.aborted).toBe(true);
    expect(stopped.extra.signal.reason).toBe('the user pressed stop');
    // a listener added after the cancel runs at once
    const late: unknown[] = [];
    stopped.extra.onAbort?.((reason) => late.push(reason));
    expect(late).toEqual(['the user pressed stop']);
    const running = seen.get('b') as Seen;
    expect(running.reasons).toEqual([]);
    expect(running.extra.signal.aborted).toBe(false);
    stopped.finish(RESULT);
    running.finish(RESULT);
    await settle();
    expect(received.map((message) => (message as { id?: unknown }).id)).toEqual([2]);
  });

  it("stops every running call when the transport closes, with an AbortController's own reason", async () => {
    const { send, seen, closeServer } = await fastPathServer(readSignalFirst);
    await send(call(1, 'a'));
    await settle();
    await closeServer();
    const stopped = seen.get('a') as Seen;
    const expected = new AbortController();
    expected.abort();
    expect(stopped.reasons).toHaveLength(1);
    const reason = stopped.reasons[0] as DOMException;
    expect(reason).toBeInstanceOf(DOMException);
    expect([reason.name, reason.message]).toEqual([
      (expected.signal.reason as DOMException).name,
      (expected.signal.reason as DOMException).message,
    ]);
    expect(stopped.extra.signal.reason).toBe(reason);
  });

  it('a removed listener is not run', async () => {
    const { send, seen } = await fastPathServer(readSignalFirst);
    await send(call(1, 'a'));
    await settle();
    const entry = seen.get('a') as Seen;
    const heard: unknown[] = [];
    const remove = entry.extra.onAbort?.((reason) => heard.push(reason));
    remove?.();
    await send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await settle();
    expect(heard).toEqual([]);
    expect(entry.reasons).toHaveLength(1);
  });
});
