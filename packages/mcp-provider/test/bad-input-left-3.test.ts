// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders in plain strings are what these tests feed the loader
// Items the third bad-input sweep noticed and left, each reproduced through the public API: an
// unknown key of toolplane's own format (a typo such as `requestTimeout`) that was dropped
// silently, user headers that would replace the ones the transport sets, a foreign `timeout` of
// 0 or less reported under a field the user never wrote, and `envFile` given to
// `createMcpProvider` (read only by the loader), and the hostile inputs next to them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_RESTART_POLICY,
  type McpServerConfig,
  createMcpProvider,
  loadMcpConfig,
} from '../src/index.js';
import { fixture, fixtureServer, tempDirectory } from './helpers.js';
import { startHttpFixture } from './remote-helpers.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** What `createMcpProvider` throws for a config (and options), or undefined. */
function thrownBy(config: unknown, options: Record<string, unknown> = {}): unknown {
  try {
    createMcpProvider('left3', config as McpServerConfig, { runDirectory: run.path, ...options });
  } catch (error) {
    return error;
  }
  return undefined;
}

const URL_SERVER = 'http://127.0.0.1:1/mcp';

describe("an unknown key in toolplane's own format", () => {
  it('is a problem of that server naming the key and the one that was meant (it was dropped silently)', async () => {
    const file = join(run.path, 'toolplane.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: {
          typo: { type: 'http', url: URL_SERVER, requestTimeout: 5000 },
          caseTypo: { command: 'node', StartupTimeoutMs: 1000 },
          alias: { command: 'node', environment: { A: '1' } },
          stranger: { command: 'node', colour: 'blue' },
          fine: { command: 'node', requestTimeoutMs: 5000 },
        },
      }),
    );
    const loaded = await loadMcpConfig(file, { env: {} });
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['typo', 'requestTimeout'],
      ['caseTypo', 'StartupTimeoutMs'],
      ['alias', 'environment'],
      ['stranger', 'colour'],
    ]);
    expect(loaded.problems[0]?.message).toBe(
      'MCP server "typo": requestTimeout is not a field of a server: did you mean requestTimeoutMs? (rename or remove it)',
    );
    expect(loaded.problems[1]?.message).toMatch(/did you mean startupTimeoutMs\?/);
    expect(loaded.problems[2]?.message).toMatch(/did you mean env\?/);
    expect(loaded.problems[3]?.message).toMatch(/colour is not a field of a server: remove it/);
    expect(loaded.problems[3]?.message).not.toMatch(/did you mean/);
  });

  it('createMcpProvider refuses one in the config or the options with CONFIG_INVALID', () => {
    const cases: ReadonlyArray<readonly [unknown, Record<string, unknown>, string, RegExp]> = [
      [{ url: URL_SERVER, requestTimeout: 5000 }, {}, 'requestTimeout', /did you mean requestTimeoutMs\?/],
      // another tool's spelling: the typed config has its own
      [{ url: URL_SERVER, timeout: 60 }, {}, 'timeout', /did you mean requestTimeoutMs\?/],
      [{ command: 'node', arguments: ['a.js'] }, {}, 'arguments', /did you mean args\?/],
      [{ command: 'node' }, { killGraceMS: 10 }, 'killGraceMS', /option.*did you mean killGraceMs\?/],
      [{ command: 'node' }, { onEvents: () => {} }, 'onEvents', /did you mean onEvent\?/],
    ];
    for (const [config, options, field, message] of cases) {
      expect(thrownBy(config, options), field).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
        details: { server: 'left3', field },
      });
    }
    // a key holding undefined carries nothing (a caller spreading optional settings)
    expect(thrownBy({ command: 'node', requestTimeout: undefined })).toBeUndefined();
  });

  it('keeps loading real files of other tools, and a VS Code file without "inputs"', async () => {
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          cline: { command: 'npx', args: ['x'], autoApprove: [], alwaysAllow: [], disabledTools: [] },
          gemini: { httpUrl: URL_SERVER, trust: false, description: 'docs', cwd: '' },
        },
      },
      { env: {} },
    );
    expect(loaded.problems).toEqual([]);
    expect(Object.keys(loaded.servers)).toEqual(['cline', 'gemini']);
    const zed = await loadMcpConfig(
      { context_servers: { z: { command: { path: 'node', args: [] }, settings: {}, source: 'custom' } } },
      { env: {} },
    );
    expect(zed.problems).toEqual([]);
    // VS Code writes `servers` alone too: its own keys load, a typo is still caught
    writeFileSync(join(run.path, 'vs.env'), 'A=1\n');
    const vscode = await loadMcpConfig(
      {
        servers: {
          local: {
            type: 'stdio',
            command: 'node',
            envFile: '${workspaceFolder}/vs.env',
            dev: { watch: 'src/**' },
          },
          remote: { type: 'http', url: URL_SERVER, headers: {}, gallery: true, version: '1.0.0' },
          typo: { type: 'stdio', command: 'node', arg: ['x'] },
        },
      },
      { env: {}, workspaceFolder: run.path },
    );
    expect(Object.keys(vscode.servers)).toEqual(['local', 'remote']);
    expect(vscode.problems.map((problem) => [problem.server, problem.field])).toEqual([['typo', 'arg']]);
    expect(vscode.problems[0]?.message).toMatch(/did you mean args\?/);
  });
});

describe('envFile given to createMcpProvider', () => {
  it('is CONFIG_INVALID saying to use the loader (it was dropped, and the server started without its variables)', () => {
    writeFileSync(join(run.path, 'direct.env'), 'FROM_FILE=yes\n');
    const config = { ...fixtureServer(), envFile: join(run.path, 'direct.env') };
    expect(thrownBy(config)).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(
        /^MCP server "left3": envFile is read by loadMcpConfig only .*load the config with loadMcpConfig, or read the file and give its variables in "env"$/,
      ),
      details: { server: 'left3', field: 'envFile' },
    });
  });

  it('the loader still reads it into env for a server that createMcpProvider then starts', async () => {
    writeFileSync(join(run.path, 'loaded.env'), 'FROM_FILE=yes\n');
    // the server starts only when the variable reached it
    const check = 'test "$FROM_FILE" = yes && exec "$0" "$1"';
    const viaLoader = {
      type: 'stdio',
      command: '/bin/sh',
      args: ['-c', check, process.execPath, fixture('server.mjs')],
      envFile: join(run.path, 'loaded.env'),
      healthIntervalMs: 0,
    };
    const loaded = await loadMcpConfig({ servers: { viaLoader } }, { env: {} });
    expect(loaded.problems).toEqual([]);
    const config = loaded.servers.viaLoader as McpServerConfig;
    expect(config).toMatchObject({ env: { FROM_FILE: 'yes' } });
    expect(config).not.toHaveProperty('envFile');
    const provider = createMcpProvider('viaLoader', config, { runDirectory: run.path });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const result = await provider.execute('echo', { message: 'hi' }, createToolContext());
      expect(result).toMatchObject({ ok: true });
    } finally {
      await provider.close?.();
    }
  });
});

describe('a "timeout" of another tool that cannot be a timeout', () => {
  it('is a problem naming timeout, the field the user wrote, not requestTimeoutMs', async () => {
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          zero: { command: 'node', timeout: 0 },
          negative: { url: URL_SERVER, timeout: -5 },
          tooLong: { url: URL_SERVER, timeout: 3_000_000_000 },
          fraction: { command: 'node', timeout: 0.0001 },
          gemini: { httpUrl: URL_SERVER, timeout: 600_000.5 },
        },
      },
      { env: {} },
    );
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['zero', 'timeout'],
      ['negative', 'timeout'],
      ['tooLong', 'timeout'],
    ]);
    expect(loaded.problems[0]?.message).toBe(
      'MCP server "zero": timeout must be more than 0: the request timeout (seconds up to 3600, milliseconds above), or set requestTimeoutMs',
    );
    expect(loaded.problems[2]?.message).toMatch(
      /timeout must be at most 2147483647 milliseconds \(about 24.8 days\)/,
    );
    // a fraction of a millisecond is rounded up, not refused under a field the user never wrote
    expect(loaded.servers.fraction?.requestTimeoutMs).toBe(1);
    expect(loaded.servers.gemini?.requestTimeoutMs).toBe(600_001);
  });

  it('a duration above what a timer can hold is CONFIG_INVALID (the timer fired at once, and every call timed out)', async () => {
    for (const field of [
      'requestTimeoutMs',
      'startupTimeoutMs',
      'maxTotalTimeoutMs',
      'idleTimeoutMs',
      'healthIntervalMs',
    ]) {
      expect(thrownBy({ url: URL_SERVER, [field]: 2 ** 31 }), field).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/must be at most 2147483647 milliseconds \(about 24.8 days\)/),
        details: { server: 'left3', field },
      });
    }
    // the largest one works: a call slower than a few ms answers
    const config = { ...fixtureServer(), requestTimeoutMs: 2 ** 31 - 1, healthIntervalMs: 0 };
    const provider = createMcpProvider('longest', config, { runDirectory: run.path });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const result = await provider.execute(
        'slow_progress',
        { steps: 1, intervalMs: 200 },
        createToolContext(),
      );
      expect(result).toMatchObject({ ok: true });
    } finally {
      await provider.close?.();
    }
  });
});

describe('a user header the transport sets itself', () => {
  const protocolHeaders = [
    'Mcp-Session-Id',
    'mcp-protocol-version',
    'ACCEPT',
    'Content-Type',
    'Last-Event-ID',
  ];

  it('is CONFIG_INVALID naming the header, on every remote transport, in createMcpProvider and the loader', async () => {
    for (const name of protocolHeaders) {
      for (const config of [
        { url: URL_SERVER, headers: { [name]: 'x' } },
        { type: 'sse', url: URL_SERVER, headers: { 'X-Key': 'k', [name]: 'x' } },
        { type: 'websocket', url: 'ws://127.0.0.1:1/ws', headers: { [name]: 'x' } },
      ]) {
        expect(thrownBy(config), `${config.type} ${name}`).toMatchObject({
          code: 'CONFIG_INVALID',
          message: expect.stringMatching(
            new RegExp(`^MCP server "left3": headers\\.${name} is set by the MCP transport .*: remove it$`),
          ),
          details: { server: 'left3', field: `headers.${name}` },
        });
      }
    }
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          pinned: { type: 'http', url: URL_SERVER, headers: { 'Mcp-Protocol-Version': '2025-03-26' } },
          fine: { type: 'http', url: URL_SERVER, headers: { 'X-Api-Key': 'k', 'User-Agent': 'tp' } },
        },
      },
      { env: {} },
    );
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['pinned', 'headers.Mcp-Protocol-Version'],
    ]);
  });

  it('so is a connection header the HTTP client manages (a value it cannot take failed every request with "fetch failed")', () => {
    for (const name of ['Upgrade', 'expect', 'Keep-Alive', 'Connection']) {
      for (const type of ['http', 'sse']) {
        expect(
          thrownBy({ type, url: URL_SERVER, headers: { [name]: 'x' } }),
          `${type} ${name}`,
        ).toMatchObject({
          code: 'CONFIG_INVALID',
          message: expect.stringMatching(/is set by the MCP transport \(.*fetch failed.*\).*: remove it$/),
          details: { server: 'left3', field: `headers.${name}` },
        });
      }
    }
  });

  it('a session with only allowed headers works against a real streamable HTTP server', async () => {
    const token = `tok-${Date.now().toString(36)}`;
    const server = await startHttpFixture([`--token=${token}`]);
    const provider = createMcpProvider(
      'allowed',
      {
        type: 'http',
        url: `http://127.0.0.1:${server.port}/mcp`,
        headers: {
          Authorization: `Bearer ${token}`,
          'X-Client-Name': 'toolplane-test',
          'User-Agent': 'tp/1',
        },
        healthIntervalMs: 0,
      },
      { runDirectory: run.path },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const whoami = await provider.execute('whoami', {}, createToolContext());
      expect(whoami.ok && whoami.content[0]).toEqual({ type: 'text', text: `Bearer ${token}` });
      // a second request rides the session the server assigned (its Mcp-Session-Id)
      const echo = await provider.execute('echo', { message: 'again' }, createToolContext());
      expect(echo).toMatchObject({ ok: true });
      const count = await provider.execute('initialize_count', {}, createToolContext());
      expect(count.ok && count.content[0]).toEqual({ type: 'text', text: '1' });
    } finally {
      await provider.close?.();
      await server.close();
    }
  });
});

describe('options of createMcpProvider of the wrong shape', () => {
  it('a restartPolicy missing a field or holding a bad one is CONFIG_INVALID naming it (a crash later threw in the restart)', () => {
    const cases: ReadonlyArray<readonly [unknown, string, RegExp]> = [
      [
        { maxRestarts: 2 },
        'restartPolicy.backoffMs',
        /is missing: give all four fields.*\.\.\.DEFAULT_RESTART_POLICY/,
      ],
      [{ ...DEFAULT_RESTART_POLICY, backoffMs: [] }, 'restartPolicy.backoffMs', /at least one delay/],
      [{ ...DEFAULT_RESTART_POLICY, backoffMs: [0, -1] }, 'restartPolicy.backoffMs[1]', /0 to 2147483647/],
      [
        { ...DEFAULT_RESTART_POLICY, maxRestarts: Number.NaN },
        'restartPolicy.maxRestarts',
        /whole number of 0 or more/,
      ],
      [
        { ...DEFAULT_RESTART_POLICY, crashWindowMs: '60s' },
        'restartPolicy.crashWindowMs',
        /whole number of 0 or more/,
      ],
      [
        { ...DEFAULT_RESTART_POLICY, maxRestart: 3 },
        'restartPolicy.maxRestart',
        /did you mean maxRestarts\?/,
      ],
      ['fast', 'restartPolicy', /must be an object/],
    ];
    for (const [restartPolicy, field, message] of cases) {
      expect(thrownBy({ command: 'node' }, { restartPolicy }), field).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
        details: { server: 'left3', field },
      });
    }
    expect(
      thrownBy({ command: 'node' }, { restartPolicy: { ...DEFAULT_RESTART_POLICY, maxRestarts: 1 } }),
    ).toBeUndefined();
  });

  it('a killGraceMs, directory or callback of the wrong shape is CONFIG_INVALID naming it', () => {
    const cases: ReadonlyArray<readonly [Record<string, unknown>, string, RegExp]> = [
      [{ killGraceMs: -1 }, 'killGraceMs', /0 to 2147483647/],
      [{ killGraceMs: 2 ** 31 }, 'killGraceMs', /0 to 2147483647/],
      [{ runDirectory: '' }, 'runDirectory', /must be a directory path/],
      [{ toolCacheDirectory: 42 }, 'toolCacheDirectory', /must be a directory path/],
      [{ onEvent: 'log' }, 'onEvent', /must be a function/],
      [{ sessionFactory: {} }, 'sessionFactory', /must be a function/],
      [{ registry: {} }, 'registry', /createSharedRegistry/],
    ];
    for (const [options, field, message] of cases) {
      expect(thrownBy({ command: 'node' }, options), field).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
        details: { server: 'left3', field },
      });
    }
  });
});

describe('the top level of a config', () => {
  it("with servers under two formats' keys is CONFIG_INVALID naming both (one set was dropped silently)", async () => {
    const cases: ReadonlyArray<readonly [object, RegExp]> = [
      [
        { servers: { a: { command: 'node' } }, mcpServers: { b: { command: 'node' } } },
        /"mcpServers" and "servers"/,
      ],
      [
        { context_servers: { a: { command: 'node' } }, mcpServers: { b: { command: 'node' } } },
        /"mcpServers" and "context_servers"/,
      ],
      [
        { mcp: { servers: { a: { command: 'node' } } }, servers: { b: { command: 'node' } } },
        /"servers" and "mcp\.servers"/,
      ],
    ];
    for (const [document, names] of cases) {
      await expect(loadMcpConfig(document, { env: {} })).rejects.toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(names),
      });
      await expect(loadMcpConfig(document, { env: {} })).rejects.toThrow(/keep one/);
    }
  });

  it("in toolplane's own format, an unknown key is CONFIG_INVALID naming it (a misspelt inputs or a setting that does nothing)", async () => {
    await expect(
      loadMcpConfig(
        { servers: { a: { command: 'node' } }, input: [{ id: 'key', default: 'k' }] },
        { env: {} },
      ),
    ).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: 'MCP config: "input" is not a field of the config: did you mean inputs? (rename or remove it)',
    });
    // $schema is for editors; other tools' files keep their own top-level keys
    const ours = await loadMcpConfig(
      { $schema: 'https://example.com/s.json', servers: { a: { command: 'node' } } },
      { env: {} },
    );
    expect(Object.keys(ours.servers)).toEqual(['a']);
    const claude = await loadMcpConfig(
      { mcpServers: { a: { command: 'node' } }, projects: {}, numStartups: 3 },
      { env: {} },
    );
    expect(Object.keys(claude.servers)).toEqual(['a']);
    const vscodeSettings = await loadMcpConfig(
      { 'editor.fontSize': 14, mcp: { servers: { a: { command: 'node' } } } },
      { env: {} },
    );
    expect(Object.keys(vscodeSettings.servers)).toEqual(['a']);
  });
});

describe('a server switched off, given to createMcpProvider', () => {
  it('is CONFIG_INVALID naming enabled (it was started anyway, though the loader skips it)', async () => {
    const config = { ...fixtureServer(), enabled: false, healthIntervalMs: 0 };
    expect(thrownBy(config)).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(
        /^MCP server "left3": enabled is false: .*skip this server.*or remove "enabled"/,
      ),
      details: { server: 'left3', field: 'enabled' },
    });
    // switched on, it starts
    const provider = createMcpProvider(
      'switchedOn',
      { ...config, enabled: true },
      { runDirectory: run.path },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(provider.status().state).toBe('ready');
    } finally {
      await provider.close?.();
    }
  });
});

describe('a header value with a character beyond Latin-1', () => {
  it('is CONFIG_INVALID naming the header, not a failed start that names none', async () => {
    const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
      [{ url: URL_SERVER, headers: { 'X-Name': 'tok\u20acn' } }, 'headers.X-Name'],
      [{ type: 'sse', url: URL_SERVER, headers: { 'X-Emoji': 'hi \u{1F600}' } }, 'headers.X-Emoji'],
      [{ type: 'websocket', url: 'ws://127.0.0.1:1/ws', bearerToken: 't\u00f6k\u20acn' }, 'bearerToken'],
    ];
    for (const [config, field] of cases) {
      const error = thrownBy(config);
      expect(error, field).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/has a character beyond Latin-1 .*percent-encode it or remove it/),
        details: { server: 'left3', field },
      });
      // the value itself is never quoted (it may be a secret)
      expect((error as Error).message).not.toMatch(/tok|\u20ac|\u{1F600}/u);
    }
    // Latin-1 text ("café") is a valid header value and still loads, also through a placeholder
    expect(thrownBy({ url: URL_SERVER, headers: { 'X-Name': 'caf\u00e9' } })).toBeUndefined();
    const loaded = await loadMcpConfig(
      { mcpServers: { a: { url: URL_SERVER, headers: { 'X-Key': '${KEY}' } } } },
      { env: { KEY: 'k\u20ac' } },
    );
    expect(loaded.problems.map((problem) => problem.field)).toEqual(['headers.X-Key']);
  });
});

describe('a URL with a user name or password', () => {
  it('on HTTP or SSE is CONFIG_INVALID without quoting it (fetch refused it at start, with the password in the message)', async () => {
    const password = `pw-${Date.now().toString(36)}`;
    for (const type of [undefined, 'http', 'sse']) {
      const error = thrownBy({ ...(type ? { type } : {}), url: `http://user:${password}@127.0.0.1:1/mcp` });
      expect(error, String(type)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(
          /url has a user name or password, which fetch will not send: .*"Authorization"/,
        ),
        details: { server: 'left3', field: 'url' },
      });
      expect((error as Error).message).not.toContain(password);
    }
    const loaded = await loadMcpConfig(
      { mcpServers: { a: { url: 'https://${AUTH}@example.com/mcp' } } },
      { env: { AUTH: `u:${password}` } },
    );
    expect(loaded.problems.map((problem) => problem.field)).toEqual(['url']);
    expect(loaded.problems[0]?.message).not.toContain(password);
  });

  it('on WebSocket still connects (ws sends it as Basic auth)', async () => {
    const server = await startHttpFixture();
    const provider = createMcpProvider(
      'wsCredentials',
      { type: 'websocket', url: `ws://user:pass@127.0.0.1:${server.port}/ws`, healthIntervalMs: 0 },
      { runDirectory: run.path },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(await provider.execute('echo', { message: 'x' }, createToolContext())).toMatchObject({
        ok: true,
      });
    } finally {
      await provider.close?.();
      await server.close();
    }
  });
});

describe("numbers and switches of the wrong shape in toolplane's own format", () => {
  it('are named with what they must be, not zod\'s "Invalid input: expected number, received string"', async () => {
    const loaded = await loadMcpConfig(
      {
        servers: {
          quoted: { command: 'node', requestTimeoutMs: '5000' },
          negative: { command: 'node', healthIntervalMs: -1 },
          fraction: { command: 'node', startupTimeoutMs: 1.5 },
          zero: { command: 'node', idleTimeoutMs: 0 },
          switch: { command: 'node', lazy: 'true' },
        },
      },
      { env: {} },
    );
    expect(loaded.problems.map((problem) => problem.message)).toEqual([
      'MCP server "quoted": requestTimeoutMs must be a number of milliseconds, not a string: remove the quotes',
      'MCP server "negative": healthIntervalMs must be 0 or more',
      'MCP server "fraction": startupTimeoutMs must be a whole number of milliseconds',
      'MCP server "zero": idleTimeoutMs must be more than 0',
      'MCP server "switch": lazy must be true or false, not a string: remove the quotes',
    ]);
  });
});
