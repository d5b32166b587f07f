// Items the fourth round noticed and left, each reproduced through the public API: an empty
// allow-list that exposed every tool, and server names that are strings of the pattern's
// characters but still make broken tool names (or are not strings at all).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpServerConfig, createMcpProvider, createMcpProviders, loadMcpConfig } from '../src/index.js';
import { hostileServer, tempDirectory } from './helpers.js';

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

describe('an empty toolsAllowed', () => {
  it('is CONFIG_INVALID in createMcpProvider and a problem in our format (it exposed every tool)', async () => {
    const error = thrownBy('empty', { command: 'node', toolsAllowed: [] });
    expect(error).toMatchObject({
      code: 'CONFIG_INVALID',
      details: { server: 'empty', field: 'toolsAllowed' },
    });
    expect((error as Error).message).toMatch(
      /toolsAllowed is empty.*remove toolsAllowed to allow all tools, or disable the server/,
    );
    const loaded = await loadMcpConfig(
      {
        servers: { empty: { command: 'node', toolsAllowed: [] }, fine: { command: 'node', toolsDenied: [] } },
      },
      { env: {} },
    );
    expect(Object.keys(loaded.servers)).toEqual(['fine']);
    expect(loaded.problems.map((problem) => [problem.server, problem.field])).toEqual([
      ['empty', 'toolsAllowed'],
    ]);
  });

  it("Gemini CLI's empty includeTools keeps its meaning there: no tool of that server is exposed", async () => {
    const config = hostileServer();
    const loaded = await loadMcpConfig(
      {
        mcpServers: {
          none: { command: config.command, args: config.args, includeTools: [] },
          noneBut: { command: config.command, args: config.args, includeTools: [], excludeTools: ['echo'] },
          some: { command: config.command, args: config.args, includeTools: ['echo'] },
        },
      },
      { env: {} },
    );
    expect(loaded.problems).toEqual([]);
    const providers = createMcpProviders(loaded, { runDirectory: run.path });
    try {
      const listed: Record<string, string[]> = {};
      for (const provider of providers) {
        await provider.start?.(AbortSignal.timeout(30_000));
        listed[provider.namespace] = (await provider.listTools()).map((spec) => spec.name);
      }
      expect(listed).toEqual({ none: [], noneBut: [], some: ['echo'] });
    } finally {
      for (const provider of providers) await provider.close?.();
    }
  });
});

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
