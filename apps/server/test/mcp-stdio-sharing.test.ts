import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ECHO_TOOL,
  type TestServer,
  grant,
  makeKey,
  putCustomTool,
  startTestServer,
} from './helpers/test-server.js';

const STDIO_SERVER = fileURLToPath(new URL('./fixtures/stdio-mcp-server.mjs', import.meta.url));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100 && isAlive(pid); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return !isAlive(pid);
}

describe('a stdio MCP server shared by many principals', () => {
  let t: TestServer;
  let keys: string[];

  beforeAll(async () => {
    t = await startTestServer();
    const put = await t.api('PUT', '/v1/mcp-servers/fixture', {
      key: t.adminKey,
      body: { type: 'stdio', command: process.execPath, args: [STDIO_SERVER] },
    });
    expect(put.status).toBe(200);
    keys = [
      await makeKey(t, t.adminKey, 'agent', 'one'),
      await makeKey(t, t.adminKey, 'user', 'two'),
      t.adminKey,
    ];
    await grant(t, 'agent', 'one', ['fixture__*']);
    await grant(t, 'user', 'two', ['fixture__pid']);
  });
  afterAll(async () => {
    await t?.close();
  });

  const pidFor = async (key: string): Promise<number> => {
    const call = await t.api('POST', '/v1/tools/fixture__pid/call', { key, body: { arguments: {} } });
    expect(call.body.result.ok).toBe(true);
    return Number(call.body.result.content[0].text);
  };

  it('runs one process for every principal, kept across a reload of the tenant tools, stopped when removed', async () => {
    const pids = new Set<number>();
    for (const key of keys) pids.add(await pidFor(key));
    expect(pids.size).toBe(1);
    const [pid] = [...pids] as [number];
    expect(isAlive(pid)).toBe(true);
    // a custom tool change rebuilds the tenant runtime; the server connection is shared, not restarted
    await putCustomTool(t, 'echo', ECHO_TOOL);
    expect(await pidFor(keys[0] as string)).toBe(pid);
    expect((await t.api('DELETE', '/v1/mcp-servers/fixture', { key: t.adminKey })).status).toBe(200);
    expect(await gone(pid)).toBe(true);
  });
});
