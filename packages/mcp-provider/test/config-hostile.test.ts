// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${input:...} placeholders in plain strings are what these tests feed the loader
// Config files nested 100 000 deep or keyed after Object.prototype members.
import { ToolError } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createMcpProvider, loadMcpConfig } from '../src/index.js';

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
