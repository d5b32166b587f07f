import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, inCI, makeTempDir, okText, textOf } from '../helpers/index.js';
import { findRipgrep } from '../../src/grep/find-ripgrep.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

const ripgrep = findRipgrep();
if (!ripgrep && inCI) throw new Error('ripgrep (rg) must be on PATH in CI: apt-get install ripgrep');

const FILES: Record<string, string | Buffer> = {
  'src/a.ts': 'import x from "y";\nexport function alpha() {\n  return TODO_VALUE;\n}\n// todo: lower case\n',
  'src/b.ts': 'const TODO_VALUE = 1;\nconst other = 2;\nconst TODO_VALUE_2 = 3;\n',
  'src/deep/c.tsx': 'export const View = () => <div>TODO_VALUE</div>;\n',
  'lib/x.js': 'module.exports = "TODO_VALUE";',
  'lib/win.js': 'first\r\nTODO_VALUE here\r\nlast\r\n',
  'docs/readme.md': '# Docs\n\nNothing to do here.\nTODO_VALUE in docs\n',
  '.hidden/h.ts': 'TODO_VALUE hidden\n',
  'node_modules/pkg/index.ts': 'TODO_VALUE in node_modules\n',
  '.git/config': 'TODO_VALUE in git\n',
  '.gitignore': 'build/\n*.tmp\n',
  'build/out.ts': 'TODO_VALUE built\n',
  'notes.tmp': 'TODO_VALUE tmp\n',
  'sub/.gitignore': '*.log\n!keep.log\n',
  'sub/keep.log': 'TODO_VALUE kept\n',
  'sub/drop.log': 'TODO_VALUE dropped\n',
  '.rgignore': 'rg-ignored.txt\n',
  'rg-ignored.txt': 'TODO_VALUE rgignored\n',
  'bin/blob.dat': Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('TODO_VALUE in binary\n')]),
  'many.txt': Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `TODO_VALUE ${i}` : `line ${i}`)).join(
    '\n',
  ),
  'long.txt': `${'x'.repeat(600)}TODO_VALUE\n`,
  'odd/we[ir]d*{x,y}?.txt': 'TODO_VALUE odd name\n',
  'odd/we[ir]d-twin.txt': 'TODO_VALUE twin\n',
  'odd/!bang.txt': 'TODO_VALUE bang\n',
  // NUL bytes after the first 64 KiB block: the text before the block holding one is searched.
  'late-binary.log': Buffer.concat([
    Buffer.from(
      Array.from({ length: 3000 }, (_, i) => (i % 1000 === 7 ? 'TODO_VALUE late' : `row ${i}`)).join('\n'),
    ),
    Buffer.alloc(70 * 1024, 'x'),
    Buffer.from([0, 0]),
    Buffer.from('\nTODO_VALUE after the NUL\n'),
  ]),
};

let dir: string;
let cleanup: () => Promise<void>;
let withRipgrep: BuiltinProvider;
let withNode: BuiltinProvider;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-grep-'));
  for (const [path, content] of Object.entries(FILES)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  await symlink(join(dir, 'src', 'a.ts'), join(dir, 'link-to-a.ts'));
  withRipgrep = createBuiltinProvider({ workspace: dir });
  withNode = createBuiltinProvider({ workspace: dir, grep: { ripgrep: false } });
});

afterAll(async () => {
  await withRipgrep?.close?.();
  await withNode?.close?.();
  await cleanup();
});

const CASES: Array<[string, Record<string, unknown>]> = [
  ['files with matches (default)', { pattern: 'TODO_VALUE' }],
  ['content with context', { pattern: 'TODO_VALUE', output_mode: 'content', context: 1 }],
  ['content before/after', { pattern: 'TODO_VALUE \\d', output_mode: 'content', before: 2, after: 1 }],
  ['count', { pattern: 'TODO_VALUE', output_mode: 'count' }],
  ['glob *.ts', { pattern: 'TODO_VALUE', glob: '*.ts' }],
  ['include and exclude globs', { pattern: 'TODO', glob: ['src/**', '!**/b.ts'], output_mode: 'content' }],
  ['type', { pattern: 'TODO_VALUE', type: 'ts', output_mode: 'count' }],
  ['case insensitive', { pattern: 'todo', case_insensitive: true, output_mode: 'content' }],
  ['inline (?i)', { pattern: '(?i)nothing TO do', output_mode: 'content' }],
  ['gitignore off', { pattern: 'TODO_VALUE', respect_gitignore: false }],
  ['sub-directory', { pattern: 'TODO_VALUE', path: 'src', output_mode: 'content' }],
  ['single file', { pattern: 'TODO', path: 'src/b.ts', output_mode: 'content' }],
  [
    'single file, globs and type do not apply',
    { pattern: 'TODO', path: 'src/b.ts', glob: '*.md', type: 'js' },
  ],
  ['single hidden file', { pattern: 'TODO', path: '.hidden/h.ts', output_mode: 'content' }],
  ['single ignored file', { pattern: 'TODO', path: 'notes.tmp', output_mode: 'count' }],
  ['single file in node_modules', { pattern: 'TODO', path: 'node_modules/pkg/index.ts' }],
  [
    'single file with glob characters',
    { pattern: 'TODO', path: 'odd/we[ir]d*{x,y}?.txt', output_mode: 'content' },
  ],
  ['single file starting with !', { pattern: 'TODO', path: 'odd/!bang.txt', output_mode: 'content' }],
  ['single binary file', { pattern: 'TODO', path: 'bin/blob.dat', output_mode: 'content' }],
  ['single file with a late NUL', { pattern: 'TODO', path: 'late-binary.log', output_mode: 'content' }],
  ['head limit', { pattern: 'TODO_VALUE', output_mode: 'content', head_limit: 3 }],
  ['anchors', { pattern: '^const \\w+ = \\d;$', output_mode: 'content' }],
  ['CRLF line end', { pattern: 'here$', output_mode: 'content' }],
  ['long line', { pattern: 'TODO_VALUE$', path: 'long.txt', output_mode: 'content' }],
  ['no match', { pattern: 'does-not-occur-anywhere' }],
];

describe('grep', () => {
  it.each(CASES)('%s: the Node engine finds what it should', async (_name, args) => {
    const result = await withNode.execute('grep', args, context());
    expect(result.ok).toBe(true);
  });

  it.skipIf(!ripgrep).each(CASES)(
    '%s: ripgrep and the Node engine give the same output',
    async (_name, args) => {
      const viaRipgrep = await withRipgrep.execute('grep', args, context());
      const viaNode = await withNode.execute('grep', args, context());
      expect(viaRipgrep.ok && (viaRipgrep.structured as { engine: string }).engine).toBe('ripgrep');
      expect(okText(viaNode)).toBe(okText(viaRipgrep));
    },
  );

  it('applies the skip rules: .git, node_modules, gitignore, rgignore, binaries, symlinks', async () => {
    const text = okText(await withNode.execute('grep', { pattern: 'TODO_VALUE' }, context()));
    const files = text.split('\n\n')[0]?.split('\n') ?? [];
    expect(files).toEqual([
      '.hidden/h.ts',
      'docs/readme.md',
      'late-binary.log',
      'lib/win.js',
      'lib/x.js',
      'long.txt',
      'many.txt',
      'odd/!bang.txt',
      'odd/we[ir]d*{x,y}?.txt',
      'odd/we[ir]d-twin.txt',
      'src/a.ts',
      'src/b.ts',
      'src/deep/c.tsx',
      'sub/keep.log',
    ]);
    const all = okText(
      await withNode.execute('grep', { pattern: 'TODO_VALUE', respect_gitignore: false }, context()),
    );
    expect(all).toContain('build/out.ts');
    expect(all).toContain('sub/drop.log');
    expect(all).not.toContain('node_modules');
    expect(all).not.toContain('.git/');
  });

  it.each([
    ['the Node engine', () => withNode],
    ['ripgrep', () => withRipgrep],
  ] as const)('%s searches a named file whatever its name, place or late NUL', async (engine, tools) => {
    if (engine === 'ripgrep' && !ripgrep) return;
    const lines = async (path: string) =>
      okText(
        await tools().execute('grep', { pattern: 'TODO_VALUE', path, output_mode: 'content' }, context()),
      )
        .split('\n\n')[0]
        ?.split('\n');
    // A name full of glob characters matches only itself, not its twin.
    expect(await lines('odd/we[ir]d*{x,y}?.txt')).toEqual([
      'odd/we[ir]d*{x,y}?.txt',
      '1:TODO_VALUE odd name',
    ]);
    expect(await lines('odd/!bang.txt')).toEqual(['odd/!bang.txt', '1:TODO_VALUE bang']);
    // Hidden, gitignored or under node_modules: named, it is searched.
    expect(await lines('.hidden/h.ts')).toEqual(['.hidden/h.ts', '1:TODO_VALUE hidden']);
    expect(await lines('notes.tmp')).toEqual(['notes.tmp', '1:TODO_VALUE tmp']);
    expect(await lines('node_modules/pkg/index.ts')).toEqual([
      'node_modules/pkg/index.ts',
      '1:TODO_VALUE in node_modules',
    ]);
    // The lines before the 64 KiB block holding a NUL, none after it.
    expect(await lines('late-binary.log')).toEqual([
      'late-binary.log',
      '8:TODO_VALUE late',
      '--',
      '1008:TODO_VALUE late',
      '--',
      '2008:TODO_VALUE late',
    ]);
  });

  it('formats content with line numbers, context markers and group separators', async () => {
    const text = okText(
      await withNode.execute(
        'grep',
        { pattern: 'TODO_VALUE', path: 'src', output_mode: 'content', context: 1, glob: 'b.ts' },
        context(),
      ),
    );
    expect(text).toBe(
      'src/b.ts\n1:const TODO_VALUE = 1;\n2-const other = 2;\n3:const TODO_VALUE_2 = 3;\n\n(2 matching lines in 1 file)',
    );
    const many = okText(
      await withNode.execute(
        'grep',
        { pattern: 'TODO_VALUE (0|9)$', path: 'many.txt', output_mode: 'content' },
        context(),
      ),
    );
    expect(many).toBe('many.txt\n1:TODO_VALUE 0\n--\n10:TODO_VALUE 9\n\n(2 matching lines in 1 file)');
  });

  it('refuses bad input with a clear message', async () => {
    const ctx = context();
    expect(textOf(await withNode.execute('grep', { pattern: '(' }, ctx))).toMatch(
      /INVALID_ARGUMENTS: pattern is not a valid regular expression/,
    );
    expect(textOf(await withNode.execute('grep', { pattern: 'a(?=b)' }, ctx))).toMatch(/lookaround/);
    expect(textOf(await withNode.execute('grep', { pattern: '(a)\\1' }, ctx))).toMatch(/backreferences/);
    expect(textOf(await withNode.execute('grep', { pattern: 'x', type: 'cobol' }, ctx))).toMatch(
      /unknown type "cobol"/,
    );
    expect(textOf(await withNode.execute('grep', { pattern: 'x', path: '../' }, ctx))).toMatch(/DENIED/);
    expect(textOf(await withNode.execute('grep', { pattern: 'x', path: 'missing' }, ctx))).toMatch(
      /does not exist/,
    );
    expect(textOf(await withNode.execute('grep', { pattern: '' }, ctx))).toMatch(/pattern is empty/);
    expect(textOf(await withNode.execute('grep', {}, ctx))).toMatch(/INVALID_ARGUMENTS/);
  });
});

describe('findRipgrep', () => {
  it('finds nothing on a PATH without rg, so grep falls back to the Node engine', () => {
    expect(findRipgrep('/nonexistent-dir:/another-missing-dir')).toBeUndefined();
  });
});
