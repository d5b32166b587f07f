// A server name prefixes every tool name (`server__tool`), so it must be a string of 1 to 32
// letters, digits, "_" and "-", without "__", not ending with "_", and not "__proto__".
// createMcpProvider refuses any other with CONFIG_INVALID; the loader reports it as a problem of
// that server and loads the others.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpServerConfig, createMcpProvider, createMcpProviders, loadMcpConfig } from '../src/index.js';
import { tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** What `createMcpProvider` throws for a name and config, or undefined. */
function thrownBy(name: unknown, config: unknown): unknown {
  try {
    createMcpProvider(name as string, config as McpServerConfig, { runDirectory: run.path });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('server names that make broken tool names', () => {
  const config = { command: 'node' };

  it('createMcpProvider refuses a name that is not a string, naming what it is', () => {
    for (const name of [123, undefined, null, { toString: () => 'x' }]) {
      const error = thrownBy(name, config);
      expect(error, String(name)).toMatchObject({ code: 'CONFIG_INVALID', details: { field: 'name' } });
      expect((error as Error).message).toMatch(/must be a string/);
    }
  });

  it('createMcpProvider refuses names that split wrong, run long, or hold characters a tool name cannot', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      // `a__b` + `c` and `a` + `b__c` both make `a__b__c`; `a_` + `x` makes `a___x`, split as `a` and `_x`
      ['a__b', /"__"/],
      ['gh_', /ends with "_"/],
      ['x'.repeat(33), /at most 32 characters/],
      ['a b', /letters, digits/],
      ['a/b', /letters, digits/],
      ['a.b', /letters, digits/],
      ['a\nb', /letters, digits/],
      ['é', /letters, digits/],
    ];
    for (const [name, why] of cases) {
      const error = thrownBy(name, config);
      expect(error, JSON.stringify(name)).toMatchObject({
        code: 'CONFIG_INVALID',
        details: { field: 'name' },
      });
      const message = (error as Error).message;
      expect(message, JSON.stringify(name)).toMatch(why);
      // a name is quoted as JSON and cut: no raw line break, no megabyte of name
      expect(message).not.toContain('\n');
    }
    const huge = thrownBy('y'.repeat(1_000_000), config) as Error;
    expect(huge.message.length).toBeLessThan(400);
    // the longest that fits, and names that only look odd, are fine
    for (const name of ['x'.repeat(32), '_a', 'a-', 'A1_b-2'])
      expect(thrownBy(name, config), name).toBeUndefined();
  });

  it('the loader reports each as a problem of that server and loads the others', async () => {
    const file = join(run.path, 'names.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          a__b: { command: 'a' },
          gh_: { command: 'b' },
          ['z'.repeat(40)]: { command: 'c' },
          'tab\there': { command: 'd' },
          ok: { command: 'e' },
        },
      }),
    );
    const loaded = await loadMcpConfig(file, { env: {} });
    expect(Object.keys(loaded.servers)).toEqual(['ok']);
    expect(loaded.problems.map((problem) => problem.server)).toEqual([
      'a__b',
      'gh_',
      'z'.repeat(40),
      'tab\there',
    ]);
    expect(loaded.problems[3]?.message).toContain('"tab\\there"');
    expect(createMcpProviders(loaded).map((provider) => provider.namespace)).toEqual(['ok']);
  });
});

describe('config server names that are not names', () => {
  it('reports "__proto__" and "" as problems and loads the other servers', async () => {
    const file = join(run.path, 'names.json');
    // written by hand: an object literal with __proto__ would set a prototype, not a key
    writeFileSync(
      file,
      '{"mcpServers":{"":{"command":"a"},"__proto__":{"command":"b"},"ok":{"command":"c"}}}',
    );
    const loaded = await loadMcpConfig(file, { env: {} });
    expect(Object.keys(loaded.servers)).toEqual(['ok']);
    expect(Object.getPrototypeOf(loaded.servers)).toBe(Object.prototype);
    expect(loaded.problems.map((problem) => problem.server).sort()).toEqual(['', '__proto__']);
    for (const problem of loaded.problems) expect(problem.message).toMatch(/name/);
    // neither becomes a provider (a provider with that name cannot exist)
    expect(createMcpProviders(loaded).map((provider) => provider.namespace)).toEqual(['ok']);
  });

  it('createMcpProvider refuses "__proto__" with CONFIG_INVALID', () => {
    expect(() => createMcpProvider('__proto__', { type: 'stdio', command: 'x' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });
});
