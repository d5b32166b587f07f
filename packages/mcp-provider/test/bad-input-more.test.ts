// More bad input, tried the way a hostile server or a confused operator would: config names that
// are not names, and a paged tools/list whose early pages hold tools with output schemas.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type McpProvider,
  type McpServerConfig,
  createMcpProvider,
  createMcpProviders,
  loadMcpConfig,
} from '../src/index.js';
import { fixture, tempDirectory } from './helpers.js';
import { type RunningHttpFixture, startHttpFixture } from './remote-helpers.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('config server names that are not names', () => {
  it('reports "__proto__" and "" as problems and loads the other servers', async () => {
    const file = join(run.path, 'names.json');
    // written by hand: an object literal with __proto__ would set a prototype, not a key
    writeFileSync(
      file,
      '{"mcpServers":{"":{"command":"a"},"__proto__":{"command":"b"},"ok":{"command":"c"}}}',
    );
    const loaded = await loadMcpConfig(file, { env: {} });
    expect(Object.keys(loaded.servers)).toEqual(['ok']);
    expect(Object.getPrototypeOf(loaded.servers)).toBe(Object.prototype);
    expect(loaded.problems.map((problem) => problem.server).sort()).toEqual(['', '__proto__']);
    for (const problem of loaded.problems) expect(problem.message).toMatch(/name/);
    // neither becomes a provider (a provider with that name cannot exist)
    expect(createMcpProviders(loaded).map((provider) => provider.namespace)).toEqual(['ok']);
  });

  it('createMcpProvider refuses "__proto__" with CONFIG_INVALID', () => {
    expect(() => createMcpProvider('__proto__', { type: 'stdio', command: 'x' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });
});

describe('output schemas of a paged tools/list on every path', () => {
  let bridge: RunningHttpFixture;
  beforeAll(async () => {
    bridge = await startHttpFixture([fixture('raw-server.mjs'), '--pages=6'], 'ws-bridge.mjs');
  });
  afterAll(() => bridge.close());

  const paths: ReadonlyArray<{ name: string; config: () => McpServerConfig }> = [
    {
      name: 'stdio, direct path',
      config: () => ({
        type: 'stdio',
        command: process.execPath,
        args: [fixture('raw-server.mjs'), '--pages=6'],
        healthIntervalMs: 0,
      }),
    },
    {
      name: 'WebSocket, SDK 1.x client',
      config: () => ({
        type: 'websocket',
        url: `ws://127.0.0.1:${bridge.port}/`,
        client: 'v1',
        healthIntervalMs: 0,
      }),
    },
    {
      name: 'WebSocket, v2 client',
      config: () => ({
        type: 'websocket',
        url: `ws://127.0.0.1:${bridge.port}/`,
        client: 'v2',
        healthIntervalMs: 0,
      }),
    },
  ];
  for (const path of paths) {
    it(`checks tools of the first page over ${path.name}`, async () => {
      const provider: McpProvider = createMcpProvider('paged', path.config(), { runDirectory: run.path });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        expect(await provider.listTools()).toHaveLength(38);
        // lying_output and missing_output are on the first of six pages
        const lying = await provider.execute('lying_output', {}, createToolContext());
        expect(!lying.ok && lying.error.code).toBe('INVALID_RESULT');
        expect(!lying.ok && lying.error.message).toMatch(/output schema/);
        const missing = await provider.execute('missing_output', {}, createToolContext());
        expect(!missing.ok && missing.error.code).toBe('INVALID_RESULT');
        const honest = await provider.execute('honest_output', {}, createToolContext());
        expect(honest.ok && honest.structured).toEqual({ sum: 5 });
      } finally {
        await provider.close?.();
      }
    });
  }
});
