// The linear glob matcher against picomatch (the matcher it stands in for) on a corpus of
// patterns and paths, in both modes, and on the inputs where picomatch backtracks.
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { linearGlob } from '../../src/grep/linear-glob.js';

const PATTERNS = [
  '*.ts',
  '**/*.ts',
  'src/**/*.ts',
  'src/**',
  '**',
  '*',
  'a/*/b',
  'a/**/b',
  '**/b',
  '?.md',
  '[a-c]*.txt',
  '[!a-c]*.txt',
  '[^a-c]*.txt',
  '[[:digit:]]*',
  '*.{ts,tsx}',
  '{src,test}/**/*.{js,mjs}',
  'file{1..3}.txt',
  '@(foo|bar).js',
  '*(ab).c',
  '+(a|b).c',
  '?(x)y',
  '.*',
  '.env*',
  '**/.git/**',
  'a\\*b',
  '*a*b',
  'a**b',
  'docs/*.md',
  '**/node_modules',
  '{a,b}',
  '{a}',
  '[abc',
  'x{',
  '*.[ch]',
  'a/b',
  '**/*',
  'dir/**/sub/**/f.txt',
  'f*le.t?t',
  '**/*.min.js',
  '*.test.ts',
  '[a-z]/[0-9]',
  'a/**',
  '**/a/**',
  '{a,b/**}',
  '*/b',
  'a/*',
  '*.{1..3}',
  '[.]env',
  'a+b',
  'a(b)',
  'a.b',
  '$x',
];

const PATHS = [
  'a.ts',
  'src/a.ts',
  'src/x/y/a.ts',
  'src',
  'a',
  'a/b',
  'a/x/b',
  'a/x/y/b',
  'b',
  'x/b',
  'a.md',
  'ab.md',
  'a.txt',
  'd.txt',
  'x/a.txt',
  '5x',
  'x.tsx',
  'src/m.mjs',
  'test/q/r.js',
  'file1.txt',
  'file4.txt',
  'foo.js',
  'foobar.js',
  'abab.c',
  'a.c',
  'ab.c',
  'y',
  'xy',
  '.env',
  '.env.local',
  '.gitignore',
  'x/.git/config',
  '.git/HEAD',
  'a*b',
  'axxb',
  'a/c/b',
  'docs/x.md',
  'docs/y/x.md',
  'node_modules',
  'p/node_modules',
  'dir/sub/f.txt',
  'dir/x/sub/y/f.txt',
  'file.txt',
  'fille.tyt',
  'q/r.min.js',
  'r.test.ts',
  'c/7',
  'b/x/y',
  'x/a',
  'x.1',
  'x.4',
  'a+b',
  'a(b)',
  'a.b',
  'axb',
  '$x',
  'x.c',
  'x.h',
  'x.[ch]',
  'x{',
  'a/b/c',
];

/**
 * Where picomatch answers otherwise than ripgrep's globs (checked with `rg --files -g`):
 * `[!...]` negates a class, `[ch]` never matches the text "[ch]", and `a/**` does not match
 * `a` itself. The linear matcher answers as ripgrep.
 */
const RIPGREP_VERDICTS: ReadonlyArray<readonly [string, string, boolean]> = [
  ['[!a-c]*.txt', 'a.txt', false],
  ['[!a-c]*.txt', 'd.txt', true],
  ['[!a-c]*.txt', 'file.txt', true],
  ['*.[ch]', 'x.[ch]', false],
  ['*.[ch]', 'x.c', true],
  ['{a,b/**}', 'b', false],
  ['a/**', 'a', false],
  ['src/**', 'src', false],
  ['**/a/**', 'a', false],
  ['**/a/**', 'x/a', false],
  ['a/**', 'a/b', true],
];
const differs = (pattern: string, path: string) =>
  RIPGREP_VERDICTS.some(([glob, name]) => glob === pattern && name === path) ||
  (pattern === '[!a-c]*.txt' && path.endsWith('.txt'));

describe('linearGlob: picomatch verdicts in time linear in the path', () => {
  it.each([false, true])('agrees with picomatch (basename %s) on every pattern and path', (mode) => {
    const disagreements: string[] = [];
    for (const pattern of PATTERNS) {
      // The file filter asks for the basename mode only for globs without "/" (picomatch
      // would match any glob against the last part of the path in that mode).
      const basename = mode && !pattern.includes('/');
      const linear = linearGlob(pattern, { basename });
      expect(linear, pattern).toBeTypeOf('function');
      const reference = picomatch(pattern, { dot: true, basename });
      for (const path of PATHS) {
        if (differs(pattern, path)) continue;
        const expected = reference(path);
        if ((linear as (path: string) => boolean)(path) !== expected)
          disagreements.push(`${pattern} ${path}: picomatch ${expected}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it.each(RIPGREP_VERDICTS)('answers %s against %s as ripgrep does (%s)', (pattern, path, verdict) => {
    expect(linearGlob(pattern, { basename: !pattern.includes('/') })?.(path)).toBe(verdict);
  });

  it('leaves negated extglobs to picomatch', () => {
    expect(linearGlob('!(*.d).ts', { basename: false })).toBeUndefined();
  });

  it('answers patterns that make picomatch backtrack', () => {
    const name = 'a'.repeat(250);
    expect(linearGlob('*a*a*a*a*a*b', { basename: true })?.(`long/${name}`)).toBe(false);
    expect(linearGlob('*a*a*a*a*a*', { basename: true })?.(`long/${name}`)).toBe(true);
    const deep = `${'a/'.repeat(1000)}y`;
    expect(linearGlob('**/a/**/a/**/a/**/b', { basename: false })?.(deep)).toBe(false);
    expect(linearGlob('**/a/**/a/**/a/**/y', { basename: false })?.(deep)).toBe(true);
  });
});
