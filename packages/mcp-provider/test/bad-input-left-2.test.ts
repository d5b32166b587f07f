// Items the second bad-input sweep noticed and left, each reproduced through the public API:
// fields of the other server kind (`env` on a URL server, `headers` on a command), a `type`
// that contradicts the fields given, and values of the wrong shape in env, headers and command.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpServerConfig, createMcpProvider, loadMcpConfig } from '../src/index.js';
import { tempDirectory } from './helpers.js';

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
  });
});
