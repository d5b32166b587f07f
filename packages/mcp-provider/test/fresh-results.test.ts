// A 2026-07-28 server may say how long its tools/list and resources/read results stay fresh
// (ttlMs). The v2 client serves such a result from its own cache without asking the server;
// the provider asks every time, as with every other client and revision: refreshTools() is a
// request to the server, and each read_resource reads.
import { createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { type RunningHttpFixture, startHttpFixture } from './helpers/http-fixture.js';

let server: RunningHttpFixture;
let provider: McpProvider;
beforeAll(async () => {
  server = await startHttpFixture(['--cache-ttl=600000'], 'modern-server.mjs');
  provider = createMcpProvider('fresh', {
    type: 'http',
    url: `http://127.0.0.1:${server.port}/mcp`,
    client: 'v2',
    healthProbe: 'none',
  });
  await provider.start?.(AbortSignal.timeout(20_000));
}, 30_000);
afterAll(async () => {
  await provider.close?.();
  await server.close();
});

describe('results a 2026-07-28 server marks fresh for ten minutes (client v2)', () => {
  it('refreshTools() asks the server: a tool it added without announcing it is listed', async () => {
    expect(provider.status().identity?.protocolVersion).toBe('2026-07-28');
    expect((await provider.listTools()).some((spec) => spec.name === 'quiet_tool')).toBe(false);
    expect(await provider.execute('add_quiet', {}, createToolContext())).toMatchObject({ ok: true });
    const listed = await provider.refreshTools?.(AbortSignal.timeout(20_000));
    expect(listed?.some((spec) => spec.name === 'quiet_tool')).toBe(true);
    expect(await provider.execute('quiet_tool', {}, createToolContext())).toMatchObject({ ok: true });
  });

  it('read_resource reads the resource each time', async () => {
    const read = async (): Promise<string> => {
      const result = await provider.execute('read_resource', { uri: 'counter://reads' }, createToolContext());
      return JSON.stringify(result);
    };
    const first = await read();
    const second = await read();
    expect(first).toMatch(/read \d+/);
    expect(second).toMatch(/read \d+/);
    expect(second).not.toBe(first);
  });
});
