import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ECHO_TOOL,
  type TestServer,
  grant,
  makeKey,
  putCustomTool,
  startTestServer,
  storages,
} from './helpers/test-server.js';

/**
 * `/mcp` answers single tool calls, tool lists, pings and notifications itself; a batch of one
 * message still goes to the MCP SDK's server. Both must answer alike.
 */
describe.each(storages())('the lean MCP handler and the SDK server agree on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let agentKey: string;

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({ storage: kind });
    await putCustomTool(t, 'echo', ECHO_TOOL);
    await putCustomTool(t, 'hidden', ECHO_TOOL);
    agentKey = await makeKey(t, t.adminKey, 'agent', 'lean');
    await grant(t, 'agent', 'lean', ['custom__echo']);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function post(body: unknown): Promise<{ status: number; type: string | null; body: unknown }> {
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agentKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: text === '' ? '' : JSON.parse(text),
    };
  }

  const messages: [string, Record<string, unknown>][] = [
    ['a granted call', { method: 'tools/call', params: { name: 'custom__echo', arguments: { text: 'hi' } } }],
    [
      'a call the grants refuse',
      { method: 'tools/call', params: { name: 'custom__hidden', arguments: { text: 'x' } } },
    ],
    ['a call of no such tool', { method: 'tools/call', params: { name: 'custom__none' } }],
    [
      'a call with arguments the tool refuses',
      { method: 'tools/call', params: { name: 'custom__echo', arguments: {} } },
    ],
    ['a tool list', { method: 'tools/list', params: {} }],
    ['a ping', { method: 'ping' }],
  ];
  for (const [title, message] of messages)
    it.skipIf(skip)(`answers ${title} alike`, async () => {
      const single = await post({ jsonrpc: '2.0', id: 7, ...message });
      const batched = await post([{ jsonrpc: '2.0', id: 7, ...message }]);
      expect(single.status).toBe(200);
      expect(single).toEqual(batched);
    });

  it.skipIf(skip)('accepts a notification with 202 and no body, as the SDK does', async () => {
    const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const single = await post(note);
    expect(single.status).toBe(202);
    expect(single).toEqual(await post([note]));
  });
});
