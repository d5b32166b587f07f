// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders in plain strings are what these tests feed the loader
// Which keys a config may hold. In toolplane's own format an unknown key is a problem of that
// server naming it and, when one is close, the key meant; createMcpProvider refuses one in the
// config or its options. Other tools' files keep their own keys. Servers under the keys of two
// formats at once are refused for the whole file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../src/index.js';
import { tempDirectory } from './helpers/index.js';
import { creationErrorIn } from './helpers/creation-error.js';

const run = tempDirectory();
afterAll(() => run.remove());

const thrownBy = creationErrorIn(run.path);

const URL_SERVER = 'http://127.0.0.1:1/mcp';

describe("an unknown key in toolplane's own format", () => {
  it('is a problem of that server naming the key and, when one is close, the key meant', async () => {
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
        details: { server: 'checked', field },
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

describe('the top level of a config', () => {
  it("with servers under two formats' keys is CONFIG_INVALID naming both", async () => {
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

  it("in toolplane's own format, an unknown key is CONFIG_INVALID naming it; $schema and other tools' own keys load", async () => {
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
