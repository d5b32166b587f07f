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
import { eventLog, fixture, hostileServer, tempDirectory } from './helpers.js';
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

describe('config values of the wrong type', () => {
  it('createMcpProvider refuses what the loader would refuse, with CONFIG_INVALID naming the field', () => {
    const cases: ReadonlyArray<readonly [unknown, RegExp]> = [
      [null, /must be an object/],
      [{ type: 'stdio', command: 5 }, /command/],
      [{ type: 'stdio', command: process.execPath, args: 'server.mjs' }, /args/],
      [{ command: process.execPath, requestTimeoutMs: -1 }, /requestTimeoutMs/],
      [{ command: process.execPath, startupTimeoutMs: Number.NaN }, /startupTimeoutMs/],
      [{ command: process.execPath, healthIntervalMs: 1.5 }, /healthIntervalMs/],
      [{ type: 'bogus', url: 'http://127.0.0.1:1/' }, /type "bogus" is unknown/],
      [{ type: 'http' }, /neither "command" \(stdio\) nor "url"/],
      [{ type: 'websocket', url: 'http://127.0.0.1:1/' }, /ws:\/\/ or wss:\/\//],
    ];
    for (const [config, message] of cases) {
      let thrown: unknown;
      try {
        createMcpProvider('typed', config as McpServerConfig);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(config)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
      });
    }
  });

  it('a "disabled" that is not a boolean is a problem, not a server that runs', async () => {
    const loaded = await loadMcpConfig(
      { mcpServers: { off: { command: 'x', disabled: 'yes' }, on: { command: 'y', disabled: false } } },
      { env: {} },
    );
    expect(Object.keys(loaded.servers)).toEqual(['on']);
    expect(loaded.problems).toEqual([
      { server: 'off', field: 'disabled', message: 'MCP server "off": disabled must be true or false' },
    ]);
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

describe('a hostile server (hand-written JSON-RPC)', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: keeps the good tools of a list with bad entries and duplicates, and says why`, async () => {
      const log = eventLog();
      const provider = createMcpProvider('hostile', hostileServer(['--bad-tools'], { client }), {
        runDirectory: run.path,
        onEvent: log.onEvent,
      });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        expect((await provider.listTools()).map((spec) => spec.name)).toEqual(['echo', 'lists', 'storm']);
        const reports = log.events.flatMap((event) =>
          event.type === 'protocol-error' ? [event.message] : [],
        );
        for (const tool of ['schema_string', 'schema_array', 'schema_missing', 'schema_wrong_type']) {
          expect(
            reports.some((message) => message.includes(`"${tool}"`) && message.includes('inputSchema')),
          ).toBe(true);
        }
        expect(reports.filter((message) => message.includes('has no name'))).toHaveLength(2);
        expect(reports.some((message) => message.includes('"echo" more than once'))).toBe(true);
        const echo = await provider.execute('echo', {}, createToolContext());
        expect(echo.ok && echo.content[0]).toEqual({ type: 'text', text: 'called echo' });
      } finally {
        await provider.close?.();
      }
    });
  }

  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: a tools/list answered with a JSON-RPC error fails start and refreshTools with PROVIDER_UNAVAILABLE`, async () => {
      const provider = createMcpProvider('listerr', hostileServer(['--list-error'], { client }), {
        runDirectory: run.path,
      });
      try {
        const expected = {
          code: 'PROVIDER_UNAVAILABLE',
          message: expect.stringMatching(
            /^MCP server "listerr": tools\/list failed: .*the tool registry is down/,
          ),
        };
        await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject(expected);
        await expect(provider.refreshTools()).rejects.toMatchObject(expected);
      } finally {
        await provider.close?.();
      }
    });
  }

  it('a storm of list_changed notifications does not make one listing each', async () => {
    const provider = createMcpProvider('storm', hostileServer(['--storm=500']), { runDirectory: run.path });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const lists = async (): Promise<number> => {
        const result = await provider.execute('lists', {}, createToolContext());
        return Number(result.ok && result.content[0]?.type === 'text' ? result.content[0].text : Number.NaN);
      };
      expect((await provider.execute('storm', {}, createToolContext())).ok).toBe(true);
      // wait until the listings stop (bounded), then count them
      let last = -1;
      let count = await lists();
      for (let i = 0; i < 100 && count !== last; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        last = count;
        count = await lists();
      }
      expect(count).toBeGreaterThanOrEqual(2); // the first listing and at least one after the storm
      expect(count).toBeLessThan(20);
    } finally {
      await provider.close?.();
    }
  });

  it('lists and calls among 5000 tools, and serves after a flood of 30 000 notifications and junk', async () => {
    const log = eventLog();
    const provider = createMcpProvider('bulk', hostileServer(['--tools=5000', '--flood=30000']), {
      runDirectory: run.path,
      onEvent: log.onEvent,
    });
    try {
      await provider.start?.(AbortSignal.timeout(60_000));
      expect(await provider.listTools()).toHaveLength(5003);
      const result = await provider.execute('bulk_4999', { n: 1 }, createToolContext());
      expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'called bulk_4999' });
      const refused = await provider.execute('bulk_1', { n: 'one' }, createToolContext());
      expect(!refused.ok && refused.error.code).toBe('INVALID_ARGUMENTS');
      expect(log.events.some((event) => event.type === 'protocol-error')).toBe(true);
    } finally {
      await provider.close?.();
    }
  });

  it('a tools/list over maxMessageBytes fails the start naming the limit to raise', async () => {
    const provider = createMcpProvider(
      'oversize',
      hostileServer(['--tools=2000'], { maxMessageBytes: 10_000 }),
      {
        runDirectory: run.path,
      },
    );
    try {
      await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: expect.stringMatching(/exceeds 10000 bytes.*raise maxMessageBytes/),
      });
    } finally {
      await provider.close?.();
    }
  });

  it('a very long unknown tool name is not echoed whole', async () => {
    const provider = createMcpProvider('longname', hostileServer([]), { runDirectory: run.path });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const result = await provider.execute('x'.repeat(100_000), {}, createToolContext());
      expect(!result.ok && result.error.code).toBe('TOOL_NOT_FOUND');
      expect(!result.ok && result.error.message.length).toBeLessThan(1_000);
      expect(!result.ok && result.error.message).toContain('it has: echo, lists, storm');
    } finally {
      await provider.close?.();
    }
  });

  it('a server whose messages never end with a newline fails its start within startupTimeoutMs', async () => {
    const provider = createMcpProvider(
      'unterminated',
      hostileServer(['--no-newline'], { startupTimeoutMs: 2_000 }),
      {
        runDirectory: run.path,
      },
    );
    try {
      await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: expect.stringContaining('did not initialize within 2000 ms'),
      });
    } finally {
      await provider.close?.();
    }
  });
});
