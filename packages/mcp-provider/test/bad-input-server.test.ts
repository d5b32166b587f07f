// Servers that send what a client should not have to take: paged and oddly named tool lists,
// schemas that do not compile, definitions the protocol does not allow, junk lines, storms of
// notifications. The good parts are kept and served; the rest is reported.
import { createToolContext } from '@toolplane/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { eventLog, fixture, hostileServer, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

function raw(flags: string[] = [], extra = {}) {
  return {
    type: 'stdio' as const,
    command: process.execPath,
    args: [fixture('raw-server.mjs'), ...flags],
    healthIntervalMs: 0,
    ...extra,
  };
}

describe('servers that send bad things', () => {
  let provider: McpProvider | undefined;
  afterEach(async () => {
    await provider?.close?.();
    provider = undefined;
  });

  it('follows every tools/list page', async () => {
    provider = createMcpProvider('paged', raw(['--pages=6']), { runDirectory: run.path });
    await provider.start?.(AbortSignal.timeout(30_000));
    const names = (await provider.listTools()).map((spec) => spec.name);
    expect(names).toHaveLength(38);
    expect(names).toContain('paged_24');
  });

  it('sanitizes names no LLM API accepts, suffixes collisions, and calls with the remote name', async () => {
    provider = createMcpProvider('names', raw(), { runDirectory: run.path });
    await provider.start?.(AbortSignal.timeout(30_000));
    const specs = await provider.listTools();
    const weird = specs.filter((spec) => String(spec.meta?.remoteName).startsWith('weird'));
    expect(weird.map((spec) => spec.name)).toEqual([
      'weird_name_with_spaces_and_colons',
      'weird_name_with_spaces_and_colons_2',
    ]);
    for (const spec of specs) expect(spec.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const result = await provider.execute('weird_name_with_spaces_and_colons_2', {}, createToolContext());
    expect(result.ok && result.content[0]).toEqual({
      type: 'text',
      text: 'called weird name.with spaces/and_colons with {}',
    });
  });

  it('reports a schema that does not compile once, and still calls the tool', async () => {
    const log = eventLog();
    provider = createMcpProvider('schemas', raw(), { runDirectory: run.path, onEvent: log.onEvent });
    await provider.start?.(AbortSignal.timeout(30_000));
    const first = await provider.execute('bad_schema', { n: 1 }, createToolContext());
    const second = await provider.execute('bad_schema', { n: 2 }, createToolContext());
    expect(first.ok && second.ok).toBe(true);
    const reports = log.events.filter((event) => event.type === 'schema-invalid');
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ server: 'schemas', tool: 'bad_schema' });
    // A good schema is still enforced.
    const invalid = await provider.execute('good', { n: 'x' }, createToolContext());
    expect(!invalid.ok && invalid.error.code).toBe('INVALID_ARGUMENTS');
  });

  it('applies allow/deny globs (deny wins) and schema overrides', async () => {
    provider = createMcpProvider(
      'filtered',
      raw([], {
        toolsAllowed: ['paged_1*', 'good', 'bad_*'],
        toolsDenied: ['paged_11', 'bad_*'],
        toolSchemas: {
          good: { type: 'object', properties: { n: { type: 'integer', maximum: 5 } }, required: ['n'] },
        },
      }),
      { runDirectory: run.path },
    );
    await provider.start?.(AbortSignal.timeout(30_000));
    const names = (await provider.listTools()).map((spec) => spec.name).sort();
    expect(names).toEqual(
      [
        'good',
        ...Array.from({ length: 10 }, (_, i) => `paged_1${i}`).filter((n) => n !== 'paged_11'),
        'paged_1',
      ].sort(),
    );
    const overridden = await provider.execute('good', { n: 9 }, createToolContext());
    expect(!overridden.ok && overridden.error.message).toContain('args.n');
  });

  it('survives malformed JSON-RPC lines and reports them', async () => {
    const log = eventLog();
    provider = createMcpProvider('malformed', raw(['--malformed']), {
      runDirectory: run.path,
      onEvent: log.onEvent,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    const result = await provider.execute('good', { n: 1 }, createToolContext());
    expect(result.ok).toBe(true);
    const errors = log.events.filter((event) => event.type === 'protocol-error');
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors[0]).toMatchObject({ server: 'malformed' });
  });

  it('fails the start of a server that only sends garbage, naming it, while another serves', async () => {
    provider = createMcpProvider('garbage', raw(['--only-garbage'], { startupTimeoutMs: 1_500 }), {
      runDirectory: run.path,
    });
    const healthy = createMcpProvider('healthy', raw(), { runDirectory: run.path });
    try {
      const [bad, good] = await Promise.allSettled([
        provider.start?.(AbortSignal.timeout(30_000)),
        healthy.start?.(AbortSignal.timeout(30_000)),
      ]);
      expect(bad.status).toBe('rejected');
      expect(bad.status === 'rejected' && String(bad.reason.message)).toMatch(/"garbage".*1500 ms/);
      expect(good.status).toBe('fulfilled');
      expect((await healthy.execute('good', { n: 3 }, createToolContext())).ok).toBe(true);
    } finally {
      await healthy.close?.();
    }
  });
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
});
