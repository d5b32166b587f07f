// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders in plain strings are what these tests feed the loader
// Server entries that cannot run as written: a command beside a url, a field of the other server
// kind, a type that contradicts the fields, a value of the wrong shape, a duration no timer can
// hold, a server switched off, names and values a process or a request cannot carry.
// createMcpProvider refuses each with CONFIG_INVALID naming the field; the loader reports each as a
// problem of that server and loads the others.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError, createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpServerConfig, createMcpProvider, loadMcpConfig } from '../src/index.js';
import { fixtureServer, tempDirectory } from './helpers/index.js';
import { creationErrorIn } from './helpers/creation-error.js';

const run = tempDirectory();
afterAll(() => run.remove());

const thrownBy = creationErrorIn(run.path);

const URL_SERVER = 'http://127.0.0.1:1/mcp';
const remoteKind = /belongs to stdio servers \(run with "command"\).*reached at a URL.*remove it/;
const stdioKind = /belongs to remote servers \(reached at a "url"\).*run as a process.*remove it/;

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

describe('fields of the other server kind', () => {
  it('createMcpProvider refuses them with CONFIG_INVALID naming the field and the kind it belongs to', () => {
    const cases: ReadonlyArray<readonly [unknown, string, RegExp]> = [
      [{ url: URL_SERVER, env: { API_KEY: 'x' } }, 'env', remoteKind],
      [{ url: URL_SERVER, cwd: '/tmp' }, 'cwd', remoteKind],
      [{ url: URL_SERVER, args: ['--verbose'] }, 'args', remoteKind],
      [{ type: 'sse', url: URL_SERVER, inheritEnv: true }, 'inheritEnv', remoteKind],
      [{ type: 'http', url: URL_SERVER, stderrTailBytes: 100 }, 'stderrTailBytes', remoteKind],
      [{ type: 'websocket', url: 'ws://127.0.0.1:1/', maxMessageBytes: 100 }, 'maxMessageBytes', remoteKind],
      [{ command: process.execPath, headers: { 'X-Key': 'x' } }, 'headers', stdioKind],
      [{ type: 'stdio', command: process.execPath, bearerToken: 'token-1234567' }, 'bearerToken', stdioKind],
    ];
    for (const [config, field, message] of cases) {
      expect(thrownBy(config), JSON.stringify(config)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
        details: { server: 'checked', field },
      });
      expect((thrownBy(config) as Error).message).toContain(`MCP server "checked": ${field} belongs to`);
    }
    // env on a URL server: the message says where a value for a remote server goes
    expect((thrownBy({ url: URL_SERVER, env: { A: '1' } }) as Error).message).toMatch(/use "headers"/);
  });

  it('the loader reports them per server, in every format, and loads the others', async () => {
    const file = join(run.path, 'mixed-kinds.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          remoteEnv: { url: URL_SERVER, env: { API_KEY: 'x' } },
          windsurfCwd: { serverUrl: URL_SERVER, cwd: '/srv' },
          geminiArgs: { httpUrl: URL_SERVER, args: ['--port', '1'] },
          stdioHeaders: { command: 'node', headers: { Authorization: 'Bearer x' } },
          fine: { command: 'node', env: { A: '1' } },
        },
      }),
    );
    const loaded = await loadMcpConfig(file, { env: {} });
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['remoteEnv', 'env'],
      ['windsurfCwd', 'cwd'],
      ['geminiArgs', 'args'],
      ['stdioHeaders', 'headers'],
    ]);
    const zed = await loadMcpConfig(
      { context_servers: { nested: { url: URL_SERVER, command: { path: 'node', args: ['a.js'] } } } },
      { env: {} },
    );
    expect(zed.problems.map((problem) => problem.server)).toEqual(['nested']);
  });
});

describe('a type that contradicts the fields given', () => {
  it('is CONFIG_INVALID naming type and what to set it to, not a request for the missing field', async () => {
    const cases: ReadonlyArray<readonly [unknown, RegExp]> = [
      [
        { type: 'stdio', url: URL_SERVER },
        /type "stdio" is for a server run with "command".*"http", "sse" or "websocket"/,
      ],
      [
        { type: 'http', command: 'node' },
        /type "http" is for a server reached at a "url".*set type to "stdio"/,
      ],
      [{ type: 'sse', command: 'node', args: ['s.js'] }, /type "sse" is for a server reached at a "url"/],
      [{ type: 'websocket', command: 'node' }, /type "websocket" is for a server reached at a "url"/],
    ];
    for (const [config, message] of cases) {
      expect(thrownBy(config), JSON.stringify(config)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
        details: { field: 'type' },
      });
    }
    // the loader's spellings: Roo Code's "streamable-http" with a command, VS Code's stdio with a url
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          roo: { type: 'streamable-http', command: 'node' },
          vscode: { type: 'stdio', url: URL_SERVER },
          mismatch: { type: 'sse', url: 'ws://127.0.0.1:1/' },
        },
      },
      { env: {} },
    );
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['roo', 'type'],
      ['vscode', 'type'],
      ['mismatch', 'url'],
    ]);
    expect(loaded.problems[0]?.message).toMatch(/type "http" is for a server reached at a "url"/);
    expect(loaded.problems[2]?.message).toMatch(/url must be an absolute http:\/\/ or https:\/\/ URL/);
  });
});

describe('values of the wrong shape', () => {
  it('createMcpProvider names the field and says what it must be, never zod\'s bare "Invalid input"', () => {
    const cases: ReadonlyArray<readonly [unknown, string, RegExp]> = [
      [
        { command: ['npx', '-y', 'pkg'] },
        'command',
        /is an array: put the executable in "command" and the rest in "args"/,
      ],
      [{ type: 'stdio', command: null }, 'command', /must be a string: the executable to run/],
      [{ command: 'node', args: 'a b' }, 'args', /must be an array of strings/],
      [{ command: 'node', args: ['--port', 3000] }, 'args[1]', /must be a string, not a number: quote it/],
      [{ command: 'node', env: ['A=1'] }, 'env', /must be an object of variable names to values/],
      [{ command: 'node', env: 'A=1' }, 'env', /must be an object of variable names to values/],
      [{ command: 'node', env: { DEBUG: true } }, 'env.DEBUG', /must be a string, not a boolean: quote it/],
      [{ command: 'node', env: { PORT: 3000 } }, 'env.PORT', /must be a string, not a number: quote it/],
      [
        { url: URL_SERVER, headers: [['Authorization', 'Bearer x']] },
        'headers',
        /must be an object of header names to values/,
      ],
      [
        { url: URL_SERVER, headers: ['Authorization: Bearer x'] },
        'headers',
        /must be an object of header names to values/,
      ],
      [{ url: URL_SERVER, headers: { 'X-N': 5 } }, 'headers.X-N', /must be a string, not a number: quote it/],
      [{ url: URL_SERVER, bearerToken: 12345678 }, 'bearerToken', /must be a string, not a number/],
      [{ url: 5 }, 'url', /must be a string: the server URL/],
    ];
    for (const [config, field, message] of cases) {
      const thrown = thrownBy(config) as Error & { details?: unknown };
      expect(thrown, JSON.stringify(config)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
        details: { field },
      });
      expect(thrown.message).not.toMatch(/Invalid input/);
    }
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

describe('a duration above what a timer can hold', () => {
  it('is CONFIG_INVALID naming the field, and the longest a timer holds works', async () => {
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
        details: { server: 'checked', field },
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

describe('a server switched off, given to createMcpProvider', () => {
  it('is CONFIG_INVALID naming enabled, and the server starts once switched on', async () => {
    const config = { ...fixtureServer(), enabled: false, healthIntervalMs: 0 };
    expect(thrownBy(config)).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(
        /^MCP server "checked": enabled is false: .*skip this server.*or remove "enabled"/,
      ),
      details: { server: 'checked', field: 'enabled' },
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

describe('a command of spaces only', () => {
  it('is a problem of that server in the loader, saying to set the executable', async () => {
    const loaded = await loadMcpConfig({ mcpServers: { blank: { command: '   ' } } }, { env: {} });
    expect(loaded.servers).toEqual({});
    expect(loaded.problems.map((problem) => problem.message)).toEqual([
      'MCP server "blank": command is only spaces: set the executable to run (for example "npx")',
    ]);
  });

  it('is CONFIG_INVALID from createMcpProvider, naming the field', () => {
    let thrown: unknown;
    try {
      createMcpProvider('blank', { type: 'stdio', command: ' \t ' });
    } catch (error) {
      thrown = error;
    }
    expect(ToolError.isInstance(thrown) && thrown.code).toBe('CONFIG_INVALID');
    expect(ToolError.isInstance(thrown) && thrown.details).toMatchObject({ field: 'command' });
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
