import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from './helpers/mcp-client.js';
import {
  ECHO_TOOL,
  type TestServer,
  grant,
  makeKey,
  putCustomTool,
  startTestServer,
  storages,
} from './helpers/test-server.js';

describe.each(storages())('the MCP endpoint on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let agentKey: string;

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({ storage: kind });
    await putCustomTool(t, 'echo', ECHO_TOOL);
    await putCustomTool(t, 'hidden', ECHO_TOOL);
    agentKey = await makeKey(t, t.adminKey, 'agent', 'claude');
    await grant(t, 'agent', 'claude', ['custom__echo']);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.skipIf(skip)('lists exactly the granted tools to an MCP SDK client', async () => {
    await using client = await connectMcp(t.url, agentKey);
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(['custom__echo']);
    expect(listed.tools[0]?.inputSchema.required).toEqual(['text']);
  });

  it.skipIf(skip)('calls a granted tool and refuses an ungranted one as an error result', async () => {
    await using client = await connectMcp(t.url, agentKey);
    const ok = await client.callTool({ name: 'custom__echo', arguments: { text: 'via mcp' } });
    expect(ok.isError).toBeFalsy();
    expect(ok.content).toEqual([{ type: 'text', text: '[via mcp]\n' }]);
    const denied = await client.callTool({ name: 'custom__hidden', arguments: { text: 'x' } });
    expect(denied.isError).toBe(true);
    expect(JSON.stringify(denied.content)).toContain('DENIED');
  });

  it.skipIf(skip)('serves each request on its own, with no session to keep (stateless mode)', async () => {
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agentKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = (await response.json()) as { result: { tools: { name: string }[] } };
    expect(body.result.tools.map((tool) => tool.name)).toEqual(['custom__echo']);
  });

  it.skipIf(skip)('refuses /mcp without a key with 401 before any MCP handling', async () => {
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { reason: string } }).error.reason).toBe('key_missing');
  });
});
