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

const TOOLS = ['custom__echo', 'custom__secret', 'custom__mine', 'custom__other'];

/** Principals with different grants, and the tools each must be able to use. */
const PRINCIPALS = [
  { kind: 'agent', id: 'wide', expected: ['custom__echo', 'custom__other'] },
  { kind: 'agent', id: 'narrow', expected: ['custom__echo'] },
  { kind: 'agent', id: 'scoped', expected: ['custom__mine'] },
  { kind: 'agent', id: 'disabled', expected: [] },
  { kind: 'user', id: 'nobody', expected: [] },
  { kind: 'user', id: 'reader', expected: ['custom__other'] },
] as const;

describe.each(storages())('one grant evaluator behind every path on $kind', ({ kind, skip }) => {
  let t: TestServer;
  const keys = new Map<string, string>();

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({ storage: kind });
    await putCustomTool(t, 'echo', ECHO_TOOL);
    await putCustomTool(t, 'secret', ECHO_TOOL);
    await putCustomTool(t, 'other', ECHO_TOOL);
    await putCustomTool(t, 'mine', { ...ECHO_TOOL, scope: { agent: 'scoped' } });
    for (const principal of PRINCIPALS)
      keys.set(principal.id, await makeKey(t, t.adminKey, principal.kind, principal.id));
    // a wildcard allow with a deny; `mine` is scoped to another agent, so the wildcard does not reach it
    await grant(t, 'agent', 'wide', ['custom__*'], ['custom__secret']);
    await grant(t, 'agent', 'narrow', ['custom__echo']);
    await grant(t, 'agent', 'scoped', ['custom__mine']);
    const disabled = await grant(t, 'agent', 'disabled', ['custom__*']);
    const patch = await t.api('PATCH', `/v1/grants/${disabled.id}`, {
      key: t.adminKey,
      body: { enabled: false },
    });
    expect(patch.status).toBe(200);
    await grant(t, 'user', 'reader', ['custom__other']);
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const principal of PRINCIPALS) {
    it.skipIf(skip)(
      `gives ${principal.kind} "${principal.id}" the same answer from REST list, REST call, batch, MCP list and MCP call`,
      async () => {
        const key = keys.get(principal.id) as string;
        const expected = [...principal.expected].sort();
        const restList = (await t.api('GET', '/v1/tools', { key })).body.tools
          .map((tool: { name: string }) => tool.name)
          .sort();
        const restCalls: string[] = [];
        for (const name of TOOLS) {
          const call = await t.api('POST', `/v1/tools/${name}/call`, {
            key,
            body: { arguments: { text: 'x' } },
          });
          if (call.body.result.ok) restCalls.push(name);
          else expect(['DENIED', 'TOOL_NOT_FOUND']).toContain(call.body.result.error.code);
        }
        const batch = await t.api('POST', '/v1/batch', {
          key,
          body: { calls: TOOLS.map((name) => ({ name, arguments: { text: 'x' } })) },
        });
        const batchCalls = TOOLS.filter((_, index) => batch.body.results[index].ok);
        await using client = await connectMcp(t.url, key);
        const mcpList = (await client.listTools()).tools.map((tool) => tool.name).sort();
        const mcpCalls: string[] = [];
        for (const name of TOOLS)
          if (!(await client.callTool({ name, arguments: { text: 'x' } })).isError) mcpCalls.push(name);
        expect({
          restList,
          restCalls: restCalls.sort(),
          batchCalls: batchCalls.sort(),
          mcpList,
          mcpCalls: mcpCalls.sort(),
        }).toEqual({
          restList: expected,
          restCalls: expected,
          batchCalls: expected,
          mcpList: expected,
          mcpCalls: expected,
        });
      },
    );
  }
});
