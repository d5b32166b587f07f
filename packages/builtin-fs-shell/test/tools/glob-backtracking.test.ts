// glob's patterns are matched in time linear in each path. picomatch (tinyglobby's matcher)
// turns each * into a backtracking [^/]*?, so `*a*a*a*a*a*b` against a 250-character name takes
// minutes with it (measured: 1.4 s at 80 characters, growing as n^4). Without the linear matcher
// this test runs past vitest's timeout.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

describe('glob with patterns that make picomatch backtrack', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let provider: BuiltinProvider;
  const ctx = context('glob-backtracking');
  const name = 'a'.repeat(250);

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-glob-backtrack-'));
    await mkdir(join(dir, 'long', 'deeper'), { recursive: true });
    await writeFile(join(dir, 'long', name), 'x');
    await writeFile(join(dir, 'long', 'deeper', name), 'x');
    await writeFile(join(dir, 'top.txt'), 'x');
    await writeFile(join(dir, 'a.ts'), 'x');
    await writeFile(join(dir, 'b.d.ts'), 'x');
    provider = createBuiltinProvider({ workspace: dir, tools: ['glob'] });
  });
  afterAll(async () => {
    await provider.close?.();
    await cleanup();
  });

  const glob = async (pattern: string) =>
    okText(await provider.execute('glob', { pattern, sort: 'name' }, ctx));

  it('answers at once, in every place of the pattern', async () => {
    expect(await glob('**/*a*a*a*a*a*b')).toContain('No files match');
    expect(await glob('long/*a*a*a*a*a*')).toBe(`long/${name}`);
    expect((await glob('**/*a*a*a*a*a*')).split('\n')).toEqual([`long/${name}`, `long/deeper/${name}`]);
    expect(await glob('**/a*/**/*a*a*a*a*a*b')).toContain('No files match');
  });

  it('keeps what the pattern means: depth, braces, classes, top-level names', async () => {
    expect(await glob('*.txt')).toBe('top.txt');
    expect(await glob('*/*')).toBe(`long/${name}`);
    expect(await glob('{top,nothing}.[t]xt')).toBe('top.txt');
    expect(await glob('long/**')).toBe(`long/${name}\nlong/deeper/${name}`);
  });

  it('matches a !(...) negation with picomatch, and fails one that backtracks in about a second', async () => {
    expect(await glob('!(*.d).ts')).toBe('a.ts');
    // 5 s at 45 characters, 26 s at 60 (measured), minutes at 250: stopped by the watchdog.
    const result = await provider.execute('glob', { pattern: 'long/a!(*a*a*a*a*a*a*a*a*b)x' }, ctx);
    expect(result.ok ? 'ok' : result.error.code).toBe('INVALID_ARGUMENTS');
    expect(result.ok ? '' : result.error.message).toContain('write it without !(...)');
  });
});
