// Tool name patterns against hostile names and hostile patterns: matching costs at most the
// name's length times the pattern's (as a backtracking regular expression, a pattern with a few
// "*" against a long name from the server would never end), and a pattern of any shape compiles.
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider, createToolFilter } from '../src/index.js';
import { hostileServer, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('glob patterns against a long tool name from the server', () => {
  it('lists the tools when a deny pattern with several "*" meets a name of 3000 characters', async () => {
    const provider = createMcpProvider(
      'long',
      hostileServer(['--long-name=3000'], { toolsDenied: ['*a*a*a*a*b', 'st*r*m'] }),
      { runDirectory: run.path },
    );
    try {
      await provider.start?.(AbortSignal.timeout(60_000));
      const names = (await provider.listTools()).map((spec) => String(spec.meta?.remoteName));
      expect(names).toContain('a'.repeat(3000));
      expect(names).toContain('echo');
      expect(names).not.toContain('storm');
    } finally {
      await provider.close?.();
    }
  });
});

describe('patterns of hostile shapes', () => {
  it('nested braces match their alternatives; a lone run of "[" or "{" is itself', () => {
    expect(createToolFilter(['{a,{b,{c,d}}}'])('c')).toBe(true);
    const nested = (depth: number): string => `${'{a,'.repeat(depth)}b${'}'.repeat(depth)}`;
    const filter = createToolFilter([nested(32)]);
    expect([filter('a'), filter('b'), filter('c')]).toEqual([true, true, false]);
    // deeper than 32, the inner braces are text
    const deep = createToolFilter([nested(2000)]);
    expect([deep('a'), deep('b'), deep(`${'{a,'.repeat(2000 - 32)}b${'}'.repeat(2000 - 32)}`)]).toEqual([
      true,
      false,
      true,
    ]);
    expect(createToolFilter(['['.repeat(100_000)])('['.repeat(100_000))).toBe(true);
    expect(createToolFilter(['{'.repeat(100_000)])('{'.repeat(100_000))).toBe(true);
    expect(createToolFilter([`${'*a'.repeat(30)}b`])('a'.repeat(40))).toBe(false);
    expect(createToolFilter([`${'*a'.repeat(30)}*`])('a'.repeat(40))).toBe(true);
  });
});
