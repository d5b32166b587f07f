// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders in plain strings are what these tests feed the loader
// The files other tools write (Claude Desktop and Claude Code, Cursor, Windsurf, Cline, Roo Code,
// Gemini CLI, VS Code, Zed) load as they are: their own extra keys, their spellings of a setting,
// a `timeout` in their unit, VS Code's number env values and `envFile`. What cannot be read as
// meant (two spellings that disagree, a field of the wrong shape) is a problem naming the field
// the user wrote.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpServerConfig, createMcpProvider, loadMcpConfig } from '../src/index.js';
import { fixture, fixtureServer, tempDirectory } from './helpers/index.js';
import { creationErrorIn } from './helpers/creation-error.js';

const run = tempDirectory();
afterAll(() => run.remove());

const thrownBy = creationErrorIn(run.path);

const URL_SERVER = 'http://127.0.0.1:1/mcp';

describe('files other tools write', () => {
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
    // a call that takes longer than 60 ms answers (60 read as milliseconds would end it with TIMEOUT)
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
});

describe('one setting in two spellings of the foreign formats', () => {
  it('is a problem naming both when they differ, and loads when they agree', async () => {
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
  it('are problems naming the field, and those servers are not loaded', async () => {
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

describe("VS Code's env values", () => {
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

describe("VS Code's and Cursor's envFile", () => {
  it('is read into env (env wins) and reaches the server; one that cannot be read is a problem', async () => {
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

  it('given to createMcpProvider is CONFIG_INVALID saying to use the loader', () => {
    writeFileSync(join(run.path, 'direct.env'), 'FROM_FILE=yes\n');
    const config = { ...fixtureServer(), envFile: join(run.path, 'direct.env') };
    expect(thrownBy(config)).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(
        /^MCP server "checked": envFile is read by loadMcpConfig only .*load the config with loadMcpConfig, or read the file and give its variables in "env"$/,
      ),
      details: { server: 'checked', field: 'envFile' },
    });
  });

  it('the loader reads it into env for a server that createMcpProvider then starts', async () => {
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
