// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders in plain strings are what these tests feed the loader
// Items a previous bad-input sweep noticed and left, each reproduced through the public API:
// `__proto__` keys in env/headers, an entry with both url and command, a flood of junk lines
// from a stdio server, and a start two callers share when one of them cancels.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type McpServerConfig,
  createMcpProvider,
  createMcpProviders,
  interpolate,
  loadMcpConfig,
} from '../src/index.js';
import {
  eventLog,
  fixtureServer,
  hostileServer,
  pidsWithTag,
  tempDirectory,
  uniqueTag,
  waitFor,
} from './helpers.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** What `createMcpProvider` throws for a config, or undefined. */
function thrownBy(config: unknown): unknown {
  try {
    createMcpProvider('left', config as McpServerConfig, { runDirectory: run.path });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('"__proto__" keys of env and headers', () => {
  it('the loader reports them as problems naming the key, instead of dropping them', async () => {
    const file = join(run.path, 'proto-keys.json');
    // written by hand: an object literal with __proto__ would set a prototype, not a key
    writeFileSync(
      file,
      `{"mcpServers":{
        "local":{"command":"node","env":{"__proto__":"x","A":"1"}},
        "remote":{"url":"http://127.0.0.1:1/mcp","headers":{"__proto__":"x","X-A":"1"}},
        "fine":{"command":"node","env":{"A":"1"}}}}`,
    );
    const loaded = await loadMcpConfig(file, { env: {} });
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['local', 'env.__proto__'],
      ['remote', 'headers.__proto__'],
    ]);
    for (const problem of loaded.problems) expect(problem.message).toMatch(/"__proto__".*rename or remove/);
    const providers = createMcpProviders(loaded, { runDirectory: run.path });
    const local = providers.find((provider) => provider.namespace === 'local');
    await expect(local?.start?.(AbortSignal.timeout(10_000))).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('env.__proto__'),
    });
    for (const provider of providers) await provider.close?.();
  });

  it('createMcpProvider refuses them with CONFIG_INVALID naming the key', () => {
    const env = JSON.parse('{"__proto__":"x","A":"1"}') as Record<string, string>;
    const headers = JSON.parse('{"__proto__":"x"}') as Record<string, string>;
    expect(thrownBy({ type: 'stdio', command: process.execPath, env })).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('env.__proto__'),
    });
    expect(thrownBy({ url: 'http://127.0.0.1:1/mcp', headers })).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('headers.__proto__'),
    });
    // the maps keyed by remote tool names: a tool may be called "__proto__"
    const byTool = JSON.parse('{"__proto__":{"type":"object"}}') as Record<string, Record<string, unknown>>;
    expect(thrownBy({ command: process.execPath, toolSchemas: byTool })).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('toolSchemas.__proto__'),
    });
    const ttls = JSON.parse('{"__proto__":5000}') as Record<string, number>;
    expect(thrownBy({ command: process.execPath, toolsCacheTtlMs: ttls })).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('toolsCacheTtlMs.__proto__'),
    });
  });
});

describe('an entry with both "url" and "command"', () => {
  const both = /both "command" \(stdio\) and "url" \(remote\).*keep one/;

  it('the loader reports it (in every spelling of url) instead of running the command', async () => {
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          plain: { command: 'node', args: ['server.mjs'], url: 'http://127.0.0.1:1/mcp' },
          windsurf: { command: 'node', serverUrl: 'http://127.0.0.1:1/mcp' },
          gemini: { command: 'node', httpUrl: 'http://127.0.0.1:1/mcp' },
          typed: { type: 'http', command: 'node', url: 'http://127.0.0.1:1/mcp' },
          fine: { command: 'node' },
        },
      },
      { env: {} },
    );
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems.map((problem) => problem.server)).toEqual([
      'plain',
      'windsurf',
      'gemini',
      'typed',
    ]);
    for (const problem of loaded.problems) expect(problem.message).toMatch(both);
  });

  it('createMcpProvider refuses it with CONFIG_INVALID', () => {
    const url = 'http://127.0.0.1:1/mcp';
    for (const config of [
      { command: process.execPath, url },
      { type: 'stdio', command: process.execPath, url },
      { type: 'http', command: process.execPath, url },
      { type: 'websocket', command: process.execPath, url: 'ws://127.0.0.1:1/' },
    ]) {
      expect(thrownBy(config), JSON.stringify(config)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(both),
      });
    }
  });
});

describe('a start two callers share', () => {
  /** A provider whose server does not answer initialize until `open()`; its processes carry `tag`. */
  function gatedProvider() {
    const tag = uniqueTag();
    const gate = join(run.path, `gate-${randomUUID()}`);
    const provider = createMcpProvider('joined', fixtureServer([`--wait-for=${gate}`, `--tag=${tag}`]), {
      runDirectory: run.path,
    });
    return { provider, tag, open: () => writeFileSync(gate, '') };
  }

  it('goes on for the caller still waiting when the one who began it cancels', async () => {
    const { provider, tag, open } = gatedProvider();
    try {
      const first = new AbortController();
      const began = provider.start?.(first.signal);
      const joined = provider.start?.(new AbortController().signal);
      expect(await waitFor(() => pidsWithTag(tag).length > 0, 20_000)).toBe(true);
      first.abort();
      await expect(began).rejects.toMatchObject({
        code: 'CANCELLED',
        message: expect.stringMatching(/start was cancelled/),
      });
      open();
      await expect(joined).resolves.toBeUndefined();
      expect((await provider.listTools()).length).toBeGreaterThan(0);
      const echoed = await provider.execute('echo', { message: 'still here' }, createToolContext());
      expect(echoed.ok && echoed.content[0]).toEqual({ type: 'text', text: 'still here' });
    } finally {
      await provider.close?.();
    }
  });

  it('is abandoned only when every caller waiting on it has cancelled, leaving no process', async () => {
    const { provider, tag } = gatedProvider();
    try {
      const callers = [new AbortController(), new AbortController()];
      const starts = callers.map((caller) => provider.start?.(caller.signal));
      expect(await waitFor(() => pidsWithTag(tag).length > 0, 20_000)).toBe(true);
      callers[1]?.abort();
      await expect(starts[1]).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(pidsWithTag(tag).length).toBeGreaterThan(0); // still starting for the other caller
      callers[0]?.abort();
      await expect(starts[0]).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
    } finally {
      await provider.close?.();
    }
  });

  it('a caller who comes while an abandoned start is torn down gets a new start, not its failure', async () => {
    const { provider, tag, open } = gatedProvider();
    try {
      const caller = new AbortController();
      const abandoned = provider.start?.(caller.signal);
      expect(await waitFor(() => pidsWithTag(tag).length > 0, 20_000)).toBe(true);
      caller.abort();
      const again = provider.start?.(AbortSignal.timeout(60_000));
      await expect(abandoned).rejects.toMatchObject({ code: 'CANCELLED' });
      open();
      await expect(again).resolves.toBeUndefined();
      expect((await provider.listTools()).length).toBeGreaterThan(0);
    } finally {
      await provider.close?.();
    }
  });
});

describe('a stdio server that prints junk lines', () => {
  const cases = [
    ['v1', 'after initialize'],
    ['v2', 'after initialize'],
    ['v1', 'before the initialize answer'],
    ['v2', 'before the initialize answer'],
  ] as const;
  for (const [client, when] of cases) {
    it(`client ${client}: a flood of junk ${when} is a few protocol-error events that count every line`, async () => {
      const junk = 3000;
      const log = eventLog();
      const provider = createMcpProvider(
        'junk',
        hostileServer([`--${when === 'after initialize' ? 'junk' : 'junk-first'}=${junk}`], { client }),
        { runDirectory: run.path, onEvent: log.onEvent },
      );
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        // answered after the junk (one stdout, in order): every junk line has been read by now
        const echoed = await provider.execute('echo', {}, createToolContext());
        expect(echoed.ok).toBe(true);
      } finally {
        await provider.close?.(); // reports what is still being counted
      }
      const reports = log.events.flatMap((event) => (event.type === 'protocol-error' ? [event] : []));
      const one = reports.filter((event) => event.count === undefined);
      const summaries = reports.filter((event) => event.count !== undefined);
      expect(one.length).toBeGreaterThan(0);
      expect(one.length).toBeLessThanOrEqual(10);
      expect(one[0]?.message).toContain('junk 0');
      expect(summaries.length).toBeGreaterThan(0);
      // every line is accounted for, none twice
      expect(one.length + summaries.reduce((sum, event) => sum + (event.count ?? 0), 0)).toBe(junk);
      expect(summaries.at(-1)?.message).toMatch(/more protocol errors.*last: .*junk 2999/);
      expect(reports.length).toBeLessThan(100);
    });
  }
});

describe('tools named after Object.prototype members', () => {
  it('keep their own schema and cache settings when toolSchemas and toolsCacheTtlMs are set', async () => {
    const log = eventLog();
    const provider = createMcpProvider(
      'names',
      hostileServer(['--proto-names'], {
        toolSchemas: { echo: { type: 'object', properties: {} } },
        toolsCacheTtlMs: { echo: 1_000 },
      }),
      { runDirectory: run.path, onEvent: log.onEvent },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const specs = await provider.listTools();
      for (const name of ['constructor', 'toString', '__proto__']) {
        const spec = specs.find((candidate) => candidate.meta?.remoteName === name);
        expect(spec?.inputSchema, name).toEqual({
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
        });
        expect(spec?.cacheTtlMs, name).toBeUndefined();
        const refused = await provider.execute(spec?.name ?? name, { n: 'one' }, createToolContext());
        expect(!refused.ok && refused.error.code, name).toBe('INVALID_ARGUMENTS');
        const called = await provider.execute(spec?.name ?? name, { n: 1 }, createToolContext());
        expect(called.ok && called.content[0], name).toEqual({ type: 'text', text: `called ${name}` });
      }
      expect(log.events.filter((event) => event.type === 'schema-invalid')).toEqual([]);
    } finally {
      await provider.close?.();
    }
  });
});

describe('placeholders named after Object.prototype members', () => {
  it('have no value unless the environment or the inputs really hold them', async () => {
    const loaded = await loadMcpConfig(
      {
        servers: {
          names: {
            command: 'node',
            args: ['${constructor}', '${input:toString}', '${env:__proto__}', '${hasOwnProperty:-fallback}'],
          },
        },
        inputs: [],
      },
      { env: process.env },
    );
    expect(loaded.servers).toEqual({});
    expect(loaded.problems.map((problem) => problem.field)).toEqual(['args[0]', 'args[1]', 'args[2]']);
    expect(interpolate('${hasOwnProperty:-fallback}', { env: process.env })).toEqual({
      ok: true,
      value: 'fallback',
    });
    // an own value still counts, even under such a name
    expect(interpolate('${constructor}', { env: { constructor: 'set' } })).toEqual({
      ok: true,
      value: 'set',
    });
  });
});

describe('a caller waiting for a restart', () => {
  it("who cancels gets CANCELLED, not the signal's bare reason", async () => {
    const provider = createMcpProvider('restarting', fixtureServer(['--die-after-list']), {
      runDirectory: run.path,
      // the restart waits a minute: the callers below wait for it
      restartPolicy: { backoffMs: [60_000], maxRestarts: 5, crashWindowMs: 60_000, healthyResetMs: 600_000 },
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(await waitFor(() => provider.status().state === 'restarting', 20_000)).toBe(true);
      const refresh = new AbortController();
      const refreshing = provider.refreshTools(refresh.signal);
      const ping = new AbortController();
      const pinging = provider.ping({ signal: ping.signal });
      refresh.abort();
      ping.abort(new Error('the user left'));
      for (const waiting of [refreshing, pinging]) {
        await expect(waiting).rejects.toMatchObject({
          code: 'CANCELLED',
          message: expect.stringMatching(/cancelled by the caller/),
        });
      }
    } finally {
      await provider.close?.();
    }
  });
});

describe('names and values a process or an HTTP request cannot carry', () => {
  it('createMcpProvider refuses them with CONFIG_INVALID naming the field, without echoing the value', () => {
    const stdio = (extra: Record<string, unknown>) => ({
      type: 'stdio',
      command: process.execPath,
      ...extra,
    });
    const remote = (headers: Record<string, string>) => ({ url: 'http://127.0.0.1:1/mcp', headers });
    const cases: ReadonlyArray<readonly [unknown, RegExp]> = [
      [stdio({ env: { 'A=B': 'x' } }), /env\.A=B .*"="/],
      [stdio({ env: { '': 'x' } }), /env\. .*empty/],
      [stdio({ env: { A: 'secret-1\0' } }), /env\.A .*NUL/],
      [stdio({ args: ['a\0b'] }), /args\[0\] .*NUL/],
      [stdio({ command: `${process.execPath}\0` }), /command .*NUL/],
      [stdio({ cwd: '/tmp\0' }), /cwd .*NUL/],
      [remote({ 'Bad Name': 'x' }), /headers\.Bad Name .*header name/],
      [remote({ 'X-A': 'secret-2\r\nInjected: 1' }), /headers\.X-A .*line break/],
      [{ url: 'http://127.0.0.1:1/mcp', bearerToken: 'secret-3\n' }, /bearerToken .*line break/],
    ];
    for (const [config, message] of cases) {
      const thrown = thrownBy(config);
      expect(thrown, JSON.stringify(config)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
      });
      expect((thrown as Error).message).not.toMatch(/secret-/);
    }
  });

  it('the loader reports a header that interpolates to a line break as a problem of that server', async () => {
    const loaded = await loadMcpConfig(
      {
        mcpServers: { api: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } } },
      },
      { env: { TOKEN: 'abc\r\nX-Injected: 1' } },
    );
    expect(loaded.servers).toEqual({});
    expect(loaded.problems.map((problem) => problem.field)).toEqual(['headers.Authorization']);
  });
});

describe('a tools/list full of bad definitions', () => {
  it('is a few protocol-error events that count every definition left out', async () => {
    const bad = 2000;
    const log = eventLog();
    const provider = createMcpProvider('badmany', hostileServer([`--bad-many=${bad}`]), {
      runDirectory: run.path,
      onEvent: log.onEvent,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect((await provider.listTools()).map((spec) => spec.name)).toEqual(['echo', 'lists', 'storm']);
      await provider.refreshTools(AbortSignal.timeout(30_000)); // a second listing, reported again
    } finally {
      await provider.close?.();
    }
    const reports = log.events.flatMap((event) => (event.type === 'protocol-error' ? [event] : []));
    expect(reports.length).toBeLessThan(50);
    expect(reports[0]?.message).toContain('"bad_0"');
    expect(reports.reduce((sum, event) => sum + (event.count ?? 1), 0)).toBe(2 * bad);
  });
});

describe('one huge message that no schema accepts', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: is reported without quoting all of it`, async () => {
      const log = eventLog();
      const provider = createMcpProvider('hugejunk', hostileServer(['--huge-junk=5000000'], { client }), {
        runDirectory: run.path,
        onEvent: log.onEvent,
      });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        expect((await provider.execute('echo', {}, createToolContext())).ok).toBe(true);
      } finally {
        await provider.close?.();
      }
      const reports = log.events.flatMap((event) => (event.type === 'protocol-error' ? [event.message] : []));
      expect(reports.length).toBeGreaterThan(0);
      for (const message of reports) expect(message.length).toBeLessThan(2_000);
    });
  }
});
