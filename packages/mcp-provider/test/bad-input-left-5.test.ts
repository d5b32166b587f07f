// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders in plain strings are what these tests feed the loader
// Config edge cases found in the fifth round: a placeholder nested in a default, a command of
// spaces only.
import { ToolError } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createMcpProvider, interpolate, loadMcpConfig } from '../src/index.js';

describe('a placeholder nested in a default', () => {
  const env = { SET: 'value', SECRET: 'hidden-value' };

  it('is not interpolated into a wrong value (a literal "${B}", or a value and a stray "}")', () => {
    expect(interpolate('${UNSET:-${SECRET}}', { env })).toEqual({
      ok: false,
      missing: ['${UNSET:-${SECRET}'],
    });
    expect(interpolate('${SET:-${SECRET}}', { env })).toEqual({ ok: false, missing: ['${SET:-${SECRET}'] });
    // a plain default still works
    expect(interpolate('${UNSET:-plain}/${SET}', { env })).toEqual({ ok: true, value: 'plain/value' });
  });

  it('is a problem of that server saying nesting is not supported, and the server is not loaded', async () => {
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          nested: { command: 'node', env: { TOKEN: '${UNSET:-${SECRET}}' } },
          plain: { command: 'node' },
        },
      },
      { env },
    );
    expect(Object.keys(loaded.servers)).toEqual(['plain']);
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.problems[0]).toMatchObject({ server: 'nested', field: 'env.TOKEN' });
    expect(loaded.problems[0]?.message).toMatch(/nests a placeholder.*not supported.*plain text/);
  });
});

describe('a command of spaces only', () => {
  it('is a problem of that server in the loader (it failed at start as "cannot start")', async () => {
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
