import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, textOf } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

let dir: string;
let cleanup: () => Promise<void>;
let provider: BuiltinProvider;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-glob-'));
  const files = [
    'src/a.ts',
    'src/b.ts',
    'src/deep/c.ts',
    'src/d.js',
    'README.md',
    '.gitignore',
    'dist/out.ts',
    'node_modules/p/i.ts',
    '.git/x.ts',
    '.config/e.ts',
  ];
  let time = Date.parse('2024-01-01T00:00:00Z') / 1000;
  for (const file of files) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), file === '.gitignore' ? 'dist/\n' : `// ${file}\n`);
    time += 60;
    await utimes(join(dir, file), time, time);
  }
  provider = createBuiltinProvider({ workspace: dir, limits: { listDefaultLimit: 4 } });
});

afterAll(async () => {
  await provider?.close?.();
  await cleanup();
});

describe('glob', () => {
  it('matches ** patterns, newest first by default, skipping .git and node_modules', async () => {
    const text = okText(await provider.execute('glob', { pattern: '**/*.ts' }, context()));
    expect(text.split('\n')).toEqual([
      '.config/e.ts',
      'dist/out.ts',
      'src/deep/c.ts',
      'src/b.ts',
      'src/a.ts',
    ]);
  });

  it('sorts by name, respects .gitignore on request, limits and says so', async () => {
    const byName = okText(
      await provider.execute(
        'glob',
        { pattern: '**/*.ts', sort: 'name', respect_gitignore: true },
        context(),
      ),
    );
    expect(byName.split('\n')).toEqual(['.config/e.ts', 'src/a.ts', 'src/b.ts', 'src/deep/c.ts']);
    const limited = okText(
      await provider.execute('glob', { pattern: '**/*', sort: 'name', limit: 2 }, context()),
    );
    expect(limited).toMatch(/^\.config\/e\.ts\n\.gitignore\n\n\(8 files match; showing 2\./);
    const inSrc = okText(
      await provider.execute('glob', { pattern: '*.{ts,js}', path: 'src', sort: 'name' }, context()),
    );
    expect(inSrc.split('\n')).toEqual(['src/a.ts', 'src/b.ts', 'src/d.js']);
  });

  it('refuses patterns that leave the directory', async () => {
    expect(textOf(await provider.execute('glob', { pattern: '../**' }, context()))).toMatch(
      /INVALID_ARGUMENTS: pattern must be relative/,
    );
    expect(textOf(await provider.execute('glob', { pattern: '/etc/*' }, context()))).toMatch(
      /INVALID_ARGUMENTS/,
    );
    expect(textOf(await provider.execute('glob', { pattern: '*', path: '../..' }, context()))).toMatch(
      /DENIED/,
    );
    expect(textOf(await provider.execute('glob', { pattern: '*', path: 'README.md' }, context()))).toMatch(
      /not a directory/,
    );
  });
});

describe('list', () => {
  it('lists entries with type and size, directories first, and truncates with a note', async () => {
    const text = okText(await provider.execute('list', {}, context()));
    expect(text).toBe(
      './ (4 entries)\n.config/\n.git/\ndist/\nnode_modules/\n(truncated at 4 entries; pass a larger limit or list a subdirectory)',
    );
    const src = okText(await provider.execute('list', { path: 'src', depth: 2, limit: 10 }, context()));
    expect(src).toBe('src/ (5 entries)\ndeep/\na.ts  12 B\nb.ts  12 B\nd.js  12 B\ndeep/c.ts  17 B');
  });

  it('does not descend into .git and node_modules unless asked', async () => {
    const text = okText(await provider.execute('list', { depth: 3, limit: 100 }, context()));
    expect(text).not.toContain('node_modules/p');
    expect(text).not.toContain('.git/x.ts');
    const all = okText(
      await provider.execute('list', { depth: 3, limit: 100, include_ignored: true }, context()),
    );
    expect(all).toContain('node_modules/p/i.ts');
  });

  it('refuses files and missing paths', async () => {
    expect(textOf(await provider.execute('list', { path: 'README.md' }, context()))).toMatch(
      /not a directory; use read/,
    );
    expect(textOf(await provider.execute('list', { path: 'nope' }, context()))).toMatch(/does not exist/);
  });
});
