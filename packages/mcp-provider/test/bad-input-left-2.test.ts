// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders in plain strings are what these tests feed the loader
// Items the second bad-input sweep noticed and left, each reproduced through the public API:
// fields of the other server kind (`env` on a URL server, `headers` on a command), and the
// hostile inputs next to them: a `type` that contradicts the fields, values of the wrong shape
// in command/args/env/headers, number env values and `envFile` of VS Code, Cline's `timeout` in
// seconds, one setting in two spellings, a header given twice, Gemini's tool filters of the
// wrong shape, a cwd that is not a directory, a bearerToken that already says "Bearer ".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpServerConfig, createMcpProvider, loadMcpConfig } from '../src/index.js';
import { fixture, fixtureServer, tempDirectory } from './helpers.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** What `createMcpProvider` throws for a config, or undefined. */
function thrownBy(config: unknown): unknown {
  try {
    createMcpProvider('left2', config as McpServerConfig, { runDirectory: run.path });
  } catch (error) {
    return error;
  }
  return undefined;
}

const URL_SERVER = 'http://127.0.0.1:1/mcp';
const remoteKind = /belongs to stdio servers \(run with "command"\).*reached at a URL.*remove it/;
const stdioKind = /belongs to remote servers \(reached at a "url"\).*run as a process.*remove it/;

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
        details: { server: 'left2', field },
      });
      expect((thrownBy(config) as Error).message).toContain(`MCP server "left2": ${field} belongs to`);
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

  it('keeps loading real files of other tools: their own extra keys, and empty fields of the other kind', async () => {
    const file = join(run.path, 'real-tools.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          // Cline / Roo Code
          cline: {
            command: 'npx',
            args: ['-y', 'some-server'],
            env: {},
            disabled: false,
            autoApprove: ['read_file'],
            alwaysAllow: ['read_file'],
            disabledTools: [],
          },
          roo: { type: 'streamable-http', url: URL_SERVER, headers: {}, alwaysAllow: [], disabled: false },
          // Claude Code / Cursor / Gemini CLI
          claude: { type: 'http', url: URL_SERVER, headers: { 'X-Key': 'k' } },
          cursor: { url: URL_SERVER, env: {}, args: [] },
          gemini: { httpUrl: URL_SERVER, trust: false, description: 'docs', includeTools: ['search'] },
        },
      }),
    );
    const loaded = await loadMcpConfig(file, { env: {} });
    expect(loaded.problems).toEqual([]);
    expect(Object.keys(loaded.servers)).toEqual(['cline', 'roo', 'claude', 'cursor', 'gemini']);
    expect(loaded.servers.roo).toMatchObject({ type: 'http', url: URL_SERVER });
    expect(loaded.servers.cursor).not.toHaveProperty('env');
    expect(loaded.servers.gemini).toMatchObject({ type: 'http', toolsAllowed: ['search'] });
    writeFileSync(join(run.path, '.env'), 'TOKEN=from-env-file\n');
    const vscode = join(run.path, 'vscode-mcp.json');
    writeFileSync(
      vscode,
      `{ "servers": {
          "local": { "type": "stdio", "command": "node", "envFile": "\${workspaceFolder}/.env", "dev": { "watch": "src/**" } },
          "remote": { "type": "sse", "url": "${URL_SERVER}", "headers": {}, "dev": {} }
        }, "inputs": [] }`,
    );
    const fromVsCode = await loadMcpConfig(vscode, { env: {}, workspaceFolder: run.path });
    expect(fromVsCode.problems).toEqual([]);
    expect(Object.keys(fromVsCode.servers)).toEqual(['local', 'remote']);
    expect(fromVsCode.servers.local).toMatchObject({ env: { TOKEN: 'from-env-file' } });
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

  it("the loader takes VS Code's number env values as their decimal text, and they reach the process", async () => {
    const file = join(run.path, 'vscode-numbers.json');
    writeFileSync(
      file,
      `{ "servers": { "numbers": {
          "type": "stdio",
          "command": "/bin/sh",
          "args": ["-c", "test \\"$PORT\\" = 3000 && test \\"$RATIO\\" = 0.5 && exec \\"$0\\" \\"$1\\"", "${process.execPath}", "${fixture('server.mjs')}"],
          "env": { "PORT": 3000, "RATIO": 0.5 },
          "healthIntervalMs": 0
        } }, "inputs": [] }`,
    );
    const loaded = await loadMcpConfig(file, { env: {} });
    expect(loaded.problems).toEqual([]);
    expect(loaded.servers.numbers).toMatchObject({ env: { PORT: '3000', RATIO: '0.5' } });
    const config = loaded.servers.numbers as McpServerConfig;
    const provider = createMcpProvider('numbers', config, { runDirectory: run.path });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect((await provider.listTools()).length).toBeGreaterThan(0);
    } finally {
      await provider.close?.();
    }
  });

  it("the loader reports VS Code's null env value (remove the variable) and other non-strings by name", async () => {
    const loaded = await loadMcpConfig(
      {
        servers: {
          unset: { type: 'stdio', command: 'node', env: { HOME: null } },
          flag: { type: 'stdio', command: 'node', env: { DEBUG: true } },
          huge: { type: 'stdio', command: 'node', env: { BIG: Number.POSITIVE_INFINITY } },
        },
        inputs: [],
      },
      { env: {} },
    );
    expect(loaded.servers).toEqual({});
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['unset', 'env.HOME'],
      ['flag', 'env.DEBUG'],
      ['huge', 'env.BIG'],
    ]);
    expect(loaded.problems[0]?.message).toMatch(/is null.*cannot remove a variable.*remove the entry/);
    expect(loaded.problems[1]?.message).toMatch(/must be a string, not a boolean: quote it/);
  });
});

describe('a "timeout" of another tool', () => {
  it("is seconds in Cline's and Roo Code's files (up to 3600) and milliseconds in Gemini CLI's and Claude Code's", async () => {
    const server = fixtureServer();
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          cline: {
            command: server.command,
            args: server.args,
            timeout: 60,
            disabled: false,
            autoApprove: [],
          },
          rooHour: { type: 'streamable-http', url: URL_SERVER, timeout: 3600, alwaysAllow: [] },
          gemini: { httpUrl: URL_SERVER, timeout: 600_000 },
          ours: { url: URL_SERVER, timeout: 30, requestTimeoutMs: 5000 },
        },
      },
      { env: {} },
    );
    expect(loaded.problems).toEqual([]);
    expect(loaded.servers.cline?.requestTimeoutMs).toBe(60_000);
    expect(loaded.servers.rooHour?.requestTimeoutMs).toBe(3_600_000);
    expect(loaded.servers.gemini?.requestTimeoutMs).toBe(600_000);
    expect(loaded.servers.ours?.requestTimeoutMs).toBe(5000);
    // a call that takes longer than 60 ms answers (60 read as milliseconds failed it with TIMEOUT)
    const config = { ...(loaded.servers.cline as McpServerConfig), healthIntervalMs: 0 };
    const provider = createMcpProvider('cline', config, { runDirectory: run.path });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const result = await provider.execute(
        'slow_progress',
        { steps: 1, intervalMs: 300 },
        createToolContext(),
      );
      expect(result).toMatchObject({ ok: true });
    } finally {
      await provider.close?.();
    }
  });
});

describe('one header given twice', () => {
  // Sent as they were, both values reach the server joined ("Bearer a, Bearer b"), and a
  // bearerToken replaced a header "Authorization" unseen.
  it('in two spellings, or as a header and bearerToken, is CONFIG_INVALID naming both', async () => {
    const cases: ReadonlyArray<readonly [unknown, string, RegExp]> = [
      [
        {
          url: URL_SERVER,
          headers: { Authorization: 'Bearer first-123', authorization: 'Bearer second-456' },
        },
        'headers.authorization',
        /headers\.authorization repeats headers\.Authorization \(header names ignore case\).*keep one/,
      ],
      [
        { type: 'websocket', url: 'ws://127.0.0.1:1/', headers: { 'X-Key': 'a', 'x-key': 'b' } },
        'headers.x-key',
        /repeats headers\.X-Key/,
      ],
      [
        { url: URL_SERVER, headers: { Authorization: 'Bearer header-123' }, bearerToken: 'token-456789' },
        'bearerToken',
        /bearerToken and headers\.Authorization both set the Authorization header: keep one/,
      ],
      [
        {
          type: 'sse',
          url: URL_SERVER,
          headers: { AUTHORIZATION: 'Basic abc' },
          bearerToken: 'token-456789',
        },
        'bearerToken',
        /headers\.AUTHORIZATION both set/,
      ],
    ];
    for (const [config, field, message] of cases) {
      const thrown = thrownBy(config) as Error;
      expect(thrown, JSON.stringify(config)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
        details: { field },
      });
      // names only, never the values
      expect(thrown.message).not.toMatch(/123|456|abc/);
    }
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          twice: { url: URL_SERVER, headers: { 'X-Api-Key': '${KEY}', 'x-api-key': 'other' } },
          fine: { url: URL_SERVER, headers: { 'X-Api-Key': '${KEY}' } },
        },
      },
      { env: { KEY: 'key-value-1' } },
    );
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['twice', 'headers.x-api-key'],
    ]);
  });
});

describe('one setting in two spellings of the foreign formats', () => {
  it('is a problem naming both when they differ, instead of one winning unseen', async () => {
    const other = 'http://127.0.0.1:2/mcp';
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          // Gemini CLI takes httpUrl over url; the loader took url
          gemini: { url: URL_SERVER, httpUrl: other },
          windsurf: { url: URL_SERVER, serverUrl: other },
          zedArgs: { command: { path: 'node', args: ['a.js'] }, args: ['b.js'] },
          zedEnv: { command: { path: 'node', env: { A: '1' } }, env: { B: '2' } },
          same: { url: URL_SERVER, serverUrl: URL_SERVER },
        },
      },
      { env: {} },
    );
    expect(Object.keys(loaded.servers)).toEqual(['same']);
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['gemini', 'httpUrl'],
      ['windsurf', 'serverUrl'],
      ['zedArgs', 'args'],
      ['zedEnv', 'env'],
    ]);
    expect(loaded.problems[0]?.message).toMatch(/httpUrl and url name different URLs: keep one/);
    expect(loaded.problems[2]?.message).toMatch(
      /args is given both in "command" \(Zed's nested form\) and beside it: keep one/,
    );
  });
});

describe("Gemini CLI's includeTools/excludeTools and a timeout of the wrong shape", () => {
  it('are problems naming the field, not dropped (a dropped includeTools exposed every tool)', async () => {
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          oneTool: { command: 'node', includeTools: 'search' },
          noneDenied: { command: 'node', excludeTools: 'delete_everything' },
          both: { command: 'node', includeTools: ['search'], toolsAllowed: ['read_*'] },
          slowText: { command: 'node', timeout: '60' },
          fine: { command: 'node', includeTools: ['search'], excludeTools: [], timeout: 60 },
        },
      },
      { env: {} },
    );
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['oneTool', 'includeTools'],
      ['noneDenied', 'excludeTools'],
      ['both', 'includeTools'],
      ['slowText', 'timeout'],
    ]);
    expect(loaded.problems[0]?.message).toMatch(/includeTools must be an array of tool names/);
    expect(loaded.problems[2]?.message).toMatch(/includeTools and toolsAllowed differ: keep one/);
    expect(loaded.problems[3]?.message).toMatch(/timeout must be a number.*requestTimeoutMs/);
  });
});

describe("VS Code's and Cursor's envFile", () => {
  it('is read into env (env wins), instead of dropped so the server started without its variables', async () => {
    writeFileSync(join(run.path, '.env'), '# comment\nFROM_FILE=yes\nBOTH="from file"\n');
    const file = join(run.path, 'env-file-mcp.json');
    const check = 'test "$FROM_FILE" = yes && test "$BOTH" = env && exec "$0" "$1"';
    writeFileSync(
      file,
      JSON.stringify({
        servers: {
          local: {
            type: 'stdio',
            command: '/bin/sh',
            args: ['-c', check, process.execPath, fixture('server.mjs')],
            envFile: '${workspaceFolder}/.env',
            env: { BOTH: 'env' },
            healthIntervalMs: 0,
          },
          relative: { type: 'stdio', command: 'node', envFile: '.env' },
          missing: { type: 'stdio', command: 'node', envFile: '${workspaceFolder}/absent.env' },
          remote: { type: 'http', url: URL_SERVER, envFile: '${workspaceFolder}/.env' },
        },
        inputs: [],
      }),
    );
    const loaded = await loadMcpConfig(file, { env: {}, workspaceFolder: run.path });
    expect(loaded.servers.local).toMatchObject({ env: { FROM_FILE: 'yes', BOTH: 'env' } });
    expect(loaded.servers.relative).toMatchObject({ env: { FROM_FILE: 'yes' } });
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['missing', 'envFile'],
      ['remote', 'envFile'],
    ]);
    expect(loaded.problems[0]?.message).toMatch(/envFile cannot be read.*absent\.env/);
    expect(loaded.problems[1]?.message).toMatch(/envFile belongs to stdio servers/);
    const provider = createMcpProvider('local', loaded.servers.local as McpServerConfig, {
      runDirectory: run.path,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect((await provider.listTools()).length).toBeGreaterThan(0);
    } finally {
      await provider.close?.();
    }
  });
});

describe('a cwd that cannot be used', () => {
  it('fails the start naming cwd, not as if the command were missing', async () => {
    const notThere = join(run.path, 'no-such-dir');
    const aFile = join(run.path, 'a-file');
    writeFileSync(aFile, 'x');
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      [notThere, /its working directory .*no-such-dir.* does not exist \(cwd\): create it or fix cwd/],
      [aFile, /its working directory .*a-file.* is not a directory \(cwd\)/],
    ];
    for (const [cwd, message] of cases) {
      const provider = createMcpProvider('cwd', fixtureServer([], { cwd }), { runDirectory: run.path });
      try {
        await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
          code: 'PROVIDER_UNAVAILABLE',
          message: expect.stringMatching(message),
        });
      } finally {
        await provider.close?.();
      }
    }
  });
});

describe('a bearerToken that already says "Bearer "', () => {
  it('is CONFIG_INVALID saying to give the token alone (it was sent as "Bearer Bearer ...")', async () => {
    for (const bearerToken of ['Bearer tok-123456', 'bearer  tok-123456']) {
      const thrown = thrownBy({ url: URL_SERVER, bearerToken }) as Error;
      expect(thrown, bearerToken).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/bearerToken starts with "Bearer ".*give the token alone/),
        details: { field: 'bearerToken' },
      });
      expect(thrown.message).not.toContain('tok-123456');
    }
    // after interpolation too
    const loaded = await loadMcpConfig(
      { mcpServers: { remote: { url: URL_SERVER, bearerToken: '${TOKEN}' } } },
      { env: { TOKEN: 'Bearer tok-123456' } },
    );
    expect(loaded.problems.map((problem) => problem.field)).toEqual(['bearerToken']);
  });
});
