// Tool names are not paths: allow and deny patterns must match a remote tool's whole name, whatever
// characters a hostile server puts in it.
import { afterAll, describe, expect, it } from 'vitest';
import { type McpServerConfig, createMcpProvider, createToolFilter, loadMcpConfig } from '../src/index.js';
import { hostileServer, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** What `createMcpProvider` throws for a name and config, or undefined. */
function thrownBy(name: string, config: unknown): unknown {
  try {
    createMcpProvider(name, config as McpServerConfig, { runDirectory: run.path });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('toolsDenied and toolsAllowed against tool names with odd characters', () => {
  it('match a name whole: "/", a line break or dots do not slip past a deny pattern', async () => {
    const provider = createMcpProvider(
      'odd',
      hostileServer(['--odd-names'], { toolsDenied: ['admin*', '.*', 'x*'] }),
      { runDirectory: run.path },
    );
    const allowOnly = createMcpProvider(
      'oddAllow',
      hostileServer(['--odd-names'], { toolsAllowed: ['?cho', '[l]ists'] }),
      {
        runDirectory: run.path,
      },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      await allowOnly.start?.(AbortSignal.timeout(30_000));
      const remote = async (of: typeof provider) =>
        (await of.listTools()).map((spec) => String(spec.meta?.remoteName)).sort();
      // the path globs of picomatch stopped "*" at "/" and a line break, and never matched dots
      expect(await remote(provider)).toEqual(['echo', 'lists', 'storm']);
      expect(await remote(allowOnly)).toEqual(['echo', 'lists']);
    } finally {
      await provider.close?.();
      await allowOnly.close?.();
    }
  });

  it('createToolFilter: "*" and "?" take any character, classes and braces work, "\\" escapes', () => {
    const filter = createToolFilter(
      ['read_*', 'a?c', '[xy]z', '[!q]q', '{get,put}_*', 'lit\\*'],
      ['read_secret*'],
    );
    const names = [
      'read_a/b',
      'read_\n',
      'read_secret/x',
      'a/c',
      'a\nc',
      'xz',
      'zz',
      'qq',
      'rq',
      'get_1',
      'put_.',
      'del_1',
      'lit*',
      'litx',
    ];
    expect(names.filter(filter)).toEqual([
      'read_a/b',
      'read_\n',
      'a/c',
      'a\nc',
      'xz',
      'rq',
      'get_1',
      'put_.',
      'lit*',
    ]);
    // characters a regular expression gives meaning to are taken literally
    expect(createToolFilter(['a.b+(c)|$^'])('a.b+(c)|$^')).toBe(true);
    expect(createToolFilter(['a.b'])('axb')).toBe(false);
    // no allow list: all; deny wins
    expect(createToolFilter(undefined, ['x'])('y')).toBe(true);
    expect(createToolFilter(['*'], ['*'])('y')).toBe(false);
  });
});

describe('a pattern with a "-" (common in tool names)', () => {
  it('matches it literally outside a class and as a range inside one', async () => {
    const filter = createToolFilter(['get-weather', 'list-*', '[a-c]x', '[-_]y', 'lit\\-z']);
    expect(
      ['get-weather', 'list-a', 'bx', '-y', '_y', 'lit-z', 'getxweather', 'dx', 'list_a'].filter(filter),
    ).toEqual(['get-weather', 'list-a', 'bx', '-y', '_y', 'lit-z']);
    // a class no regular expression can hold is taken literally
    expect(createToolFilter(['[z-a]'])('[z-a]')).toBe(true);
    const provider = createMcpProvider(
      'hyphen',
      hostileServer([], { toolsAllowed: ['no-such-tool', 'echo'], toolsDenied: ['st-orm'] }),
      { runDirectory: run.path },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect((await provider.listTools()).map((spec) => String(spec.meta?.remoteName))).toEqual(['echo']);
    } finally {
      await provider.close?.();
    }
  });
});

describe('a pattern that starts with "!"', () => {
  it('is CONFIG_INVALID naming the field: "!" is not a negation here', () => {
    for (const field of ['toolsAllowed', 'toolsDenied'] as const) {
      let thrown: unknown;
      try {
        createMcpProvider('bang', hostileServer([], { [field]: ['echo', '!storm'] }), {
          runDirectory: run.path,
        });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: 'CONFIG_INVALID', details: { field: `${field}[1]` } });
      expect((thrown as Error).message).toMatch(/is not a negation here/);
    }
  });
});

describe('an empty toolsAllowed', () => {
  it('is CONFIG_INVALID in createMcpProvider and a problem in our format', async () => {
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
});
