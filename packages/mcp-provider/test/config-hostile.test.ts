// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${input:...} placeholders in plain strings are what these tests feed the loader
// Config files nested 100 000 deep, or with keys and placeholders named after Object.prototype
// members.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type McpServerConfig,
  createMcpProvider,
  createMcpProviders,
  interpolate,
  loadMcpConfig,
} from '../src/index.js';
import { tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** What `createMcpProvider` throws for a config, or undefined. */
function thrownBy(config: unknown): unknown {
  try {
    createMcpProvider('checked', config as McpServerConfig, { runDirectory: run.path });
  } catch (error) {
    return error;
  }
  return undefined;
}

const deep = (): unknown => JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);

describe('a config nested 100 000 deep', () => {
  it('toolsDenied beside excludeTools: a problem of that server, not a RangeError', async () => {
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          a: { command: 'node', toolsDenied: deep(), excludeTools: ['x'] },
          b: { command: 'node' },
        },
      },
      { env: {} },
    );
    expect(Object.keys(loaded.servers)).toEqual(['b']);
    expect(loaded.problems.map((problem) => problem.message)).toEqual([
      'MCP server "a": excludeTools and toolsDenied differ: keep one',
    ]);
  });

  it('a toolSchemas schema: a problem of that server in the loader, CONFIG_INVALID from createMcpProvider', async () => {
    const toolSchemas = { search: { type: 'object', properties: { q: deep() } } };
    const loaded = await loadMcpConfig({ servers: { a: { command: 'node', toolSchemas } } }, { env: {} });
    expect(loaded.servers).toEqual({});
    expect(loaded.problems[0]).toMatchObject({ server: 'a', field: 'toolSchemas.search' });
    expect(loaded.problems[0]?.message).toMatch(/toolSchemas\.search nests deeper than 100 levels/);
    let thrown: unknown;
    try {
      createMcpProvider('a', { type: 'stdio', command: 'node', toolSchemas });
    } catch (error) {
      thrown = error;
    }
    expect(ToolError.isInstance(thrown) && thrown.code).toBe('CONFIG_INVALID');
  });
});

describe('a VS Code input whose id is "__proto__"', () => {
  it('gives its default to ${input:__proto__}, as any other id does', async () => {
    const loaded = await loadMcpConfig(
      {
        servers: {
          a: { type: 'stdio', command: 'node', env: { A: '${input:__proto__}', B: '${input:constructor}' } },
        },
        inputs: [
          { id: '__proto__', type: 'promptString', default: 'proto-value' },
          { id: 'constructor', type: 'promptString', default: 'constructor-value' },
        ],
      },
      { env: {} },
    );
    expect(loaded.problems).toEqual([]);
    expect(loaded.servers.a).toMatchObject({ env: { A: 'proto-value', B: 'constructor-value' } });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('"__proto__" keys of env and headers', () => {
  it('the loader reports them as problems naming the key, and such a server does not start', async () => {
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
