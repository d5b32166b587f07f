import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, textOf } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

describe('read / write / edit', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let provider: BuiltinProvider;
  const ctx = context('files');
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    provider = createBuiltinProvider({ workspace: dir, limits: { readMaxLineLength: 50 } });
  });
  afterEach(async () => {
    await provider.close?.();
    await cleanup();
  });
  const call = (name: string, args: Record<string, unknown>, c = ctx) => provider.execute(name, args, c);

  it('reads with line numbers, offset and limit, and says where to continue', async () => {
    await writeFile(join(dir, 'a.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    const text = okText(await call('read', { path: 'a.txt', offset: 3, limit: 2 }));
    expect(text).toBe(
      '     3\tline 3\n     4\tline 4\n\n(a.txt continues after line 4 of 10; pass offset=5 to read more)',
    );
    // With a final newline the count is the same: "\n" ends a line, it does not start one.
    await writeFile(
      join(dir, 'b.txt'),
      `${Array.from({ length: 7 }, (_, i) => `row ${i + 1}`).join('\n')}\n`,
    );
    const head = await call('read', { path: 'b.txt', limit: 1 });
    expect(okText(head)).toContain('(b.txt continues after line 1 of 7; pass offset=2 to read more)');
    expect(head.ok && head.structured).toMatchObject({ firstLine: 1, lines: 1, more: true, totalLines: 7 });
    const tail = okText(await call('read', { path: 'a.txt', offset: 9 }));
    expect(tail).toContain('    10\tline 10');
    expect(tail).toContain('end of file (10 lines)');
  });

  it('cuts long lines, handles CRLF and a BOM', async () => {
    await writeFile(join(dir, 'long.txt'), `\ufeff${'x'.repeat(80)}\r\nshort\r\n`);
    const text = okText(await call('read', { path: 'long.txt' }));
    expect(text).toContain(`     1\t${'x'.repeat(50)} [line truncated]`);
    expect(text).toContain('     2\tshort\n');
  });

  it('refuses an offset past the end, a directory, a missing file', async () => {
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\n');
    const past = await call('read', { path: 'a.txt', offset: 5 });
    expect(textOf(past)).toMatch(/INVALID_ARGUMENTS: offset 5 is past the end of a\.txt \(2 lines\)/);
    expect(textOf(await call('read', { path: '.' }))).toMatch(/is a directory; use list/);
    expect(textOf(await call('read', { path: 'nope.txt' }))).toMatch(
      /INVALID_ARGUMENTS: nope\.txt does not exist/,
    );
    expect(textOf(await call('read', { path: 'a.txt', offset: 0 }))).toMatch(/INVALID_ARGUMENTS/);
    expect(textOf(await call('read', {}))).toMatch(/INVALID_ARGUMENTS/);
  });

  it('refuses a FIFO instead of hanging on it', async () => {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    expect(textOf(await call('read', { path: 'pipe' }))).toMatch(
      /INVALID_ARGUMENTS: pipe is not a regular file/,
    );
    expect(textOf(await call('edit', { path: 'pipe', old_string: 'a', new_string: 'b' }))).toMatch(
      /INVALID_ARGUMENTS/,
    );
  });

  it('returns images as image content and refuses other binaries with type and size', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    await writeFile(join(dir, 'pixel.png'), png);
    const image = await call('read', { path: 'pixel.png' });
    expect(image.ok && image.content[1]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: png.toString('base64'),
    });
    await writeFile(join(dir, 'blob.bin'), Buffer.from([1, 2, 0, 3, 4]));
    expect(textOf(await call('read', { path: 'blob.bin' }))).toMatch(
      /binary data \(application\/octet-stream, 5 B\); read shows text files only/,
    );
    await writeFile(join(dir, 'doc.pdf'), Buffer.from('%PDF-1.7\n...'));
    expect(textOf(await call('read', { path: 'doc.pdf' }))).toMatch(/PDF document \(application\/pdf/);
  });

  it('writes new files with parent directories, atomically, keeping the mode of an existing file', async () => {
    okText(await call('write', { path: 'deep/er/new.txt', content: 'hello' }));
    expect(await readFile(join(dir, 'deep/er/new.txt'), 'utf8')).toBe('hello');
    await writeFile(join(dir, 'script.sh'), '#!/bin/sh\necho old\n');
    await chmod(join(dir, 'script.sh'), 0o751);
    okText(await call('read', { path: 'script.sh' }));
    okText(await call('write', { path: 'script.sh', content: '#!/bin/sh\necho new\n' }));
    expect((await stat(join(dir, 'script.sh'))).mode & 0o777).toBe(0o751);
    expect(await readFile(join(dir, 'script.sh'), 'utf8')).toBe('#!/bin/sh\necho new\n');
  });

  it('replaces a symlink planted at the destination instead of following it', async () => {
    const { dir: outside, cleanup: cleanOutside } = await makeTempDir('tp-outside-');
    try {
      await writeFile(join(outside, 'target.txt'), 'untouched');
      // A link planted after the path was checked: simulate by writing through the atomic
      // writer to a path whose final entry is a link inside the workspace to the outside.
      await symlink(join(outside, 'target.txt'), join(dir, 'planted'));
      const result = await call('write', { path: 'planted', content: 'pwned' });
      expect(result.ok).toBe(false);
      expect(await readFile(join(outside, 'target.txt'), 'utf8')).toBe('untouched');
    } finally {
      await cleanOutside();
    }
  });

  it('refuses to overwrite a file the session has not read, or that changed since', async () => {
    await writeFile(join(dir, 'a.txt'), 'original\n');
    const unread = await call('write', { path: 'a.txt', content: 'x' });
    expect(textOf(unread)).toMatch(
      /DENIED: a\.txt exists and has not been read in this session; call read on it first/,
    );
    expect(textOf(await call('edit', { path: 'a.txt', old_string: 'original', new_string: 'x' }))).toMatch(
      /has not been read/,
    );
    okText(await call('read', { path: 'a.txt' }));
    // Another session's read does not count.
    expect(textOf(await call('write', { path: 'a.txt', content: 'x' }, context('other')))).toMatch(
      /has not been read/,
    );
    await writeFile(join(dir, 'a.txt'), 'changed by someone else\n');
    await utimes(join(dir, 'a.txt'), new Date(), new Date(Date.now() + 5000));
    expect(textOf(await call('write', { path: 'a.txt', content: 'x' }))).toMatch(
      /changed on disk since this session read it; call read on it again/,
    );
    okText(await call('read', { path: 'a.txt' }));
    okText(await call('write', { path: 'a.txt', content: 'mine\n' }));
    // After its own write the session may edit again without another read.
    okText(await call('edit', { path: 'a.txt', old_string: 'mine', new_string: 'ours' }));
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('ours\n');
  });

  it('refuses writes to protected paths by default, and allows them when configured', async () => {
    await mkdir(join(dir, '.git', 'hooks'), { recursive: true });
    expect(textOf(await call('write', { path: '.git/hooks/pre-commit', content: 'evil' }))).toMatch(
      /DENIED: \.git\/hooks\/pre-commit is a protected path/,
    );
    expect(textOf(await call('write', { path: '.git/config', content: 'evil' }))).toMatch(/DENIED/);
    expect(textOf(await call('write', { path: 'sub/.bashrc', content: 'evil' }))).toMatch(/DENIED/);
    expect(textOf(await call('write', { path: '.toolplane/config.json', content: '{}' }))).toMatch(/DENIED/);
    // A symlink inside the workspace pointing at a protected file is caught too.
    await writeFile(join(dir, '.git', 'config'), '[core]\n');
    await symlink(join(dir, '.git', 'config'), join(dir, 'innocent'));
    okText(await call('read', { path: 'innocent' }));
    expect(textOf(await call('write', { path: 'innocent', content: 'evil' }))).toMatch(/DENIED/);
    const open = createBuiltinProvider({ workspace: dir, protectedPaths: [] });
    okText(await open.execute('write', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' }, ctx));
    await open.close?.();
  });

  it('edits exactly, keeps CRLF and a BOM, and applies several edits all or none', async () => {
    const file = join(dir, 'win.txt');
    await writeFile(
      file,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('alpha\r\nbeta\r\ngamma\r\n')]),
    );
    okText(await call('read', { path: 'win.txt' }));
    okText(await call('edit', { path: 'win.txt', old_string: 'alpha\nbeta', new_string: 'ALPHA\nBETA' }));
    expect(await readFile(file)).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('ALPHA\r\nBETA\r\ngamma\r\n')]),
    );
    const failed = await call('edit', {
      path: 'win.txt',
      edits: [
        { old_string: 'gamma', new_string: 'GAMMA' },
        { old_string: 'delta', new_string: 'DELTA' },
      ],
    });
    expect(textOf(failed)).toMatch(/edit 2 of 2: old_string was not found/);
    expect((await readFile(file, 'utf8')).includes('gamma')).toBe(true);
    okText(
      await call('edit', {
        path: 'win.txt',
        edits: [
          { old_string: 'gamma', new_string: 'GAMMA' },
          { old_string: 'GAMMA', new_string: 'G' },
        ],
      }),
    );
    expect((await readFile(file, 'utf8')).endsWith('BETA\r\nG\r\n')).toBe(true);
  });

  it('reads and edits UTF-16LE files, keeping the encoding', async () => {
    const file = join(dir, 'wide.txt');
    await writeFile(
      file,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('één\r\ntwee\r\n', 'utf16le')]),
    );
    expect(okText(await call('read', { path: 'wide.txt' }))).toBe(
      '     1\téén\n     2\ttwee\n\n(end of file (2 lines))',
    );
    okText(await call('edit', { path: 'wide.txt', old_string: 'twee', new_string: 'drie' }));
    expect(await readFile(file)).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('één\r\ndrie\r\n', 'utf16le')]),
    );
  });

  it('keeps Latin-1 files Latin-1', async () => {
    const file = join(dir, 'latin.txt');
    await writeFile(file, Buffer.from('caf\xe9 cr\xe8me\n', 'latin1'));
    okText(await call('read', { path: 'latin.txt' }));
    okText(await call('edit', { path: 'latin.txt', old_string: 'crème', new_string: 'brûlée' }));
    expect(await readFile(file)).toEqual(Buffer.from('caf\xe9 br\xfbl\xe9e\n', 'latin1'));
    expect(textOf(await call('edit', { path: 'latin.txt', old_string: 'café', new_string: 'caf€' }))).toMatch(
      /Latin-1/,
    );
  });

  it('explains a missing or ambiguous old_string with candidates', async () => {
    await writeFile(
      join(dir, 'code.ts'),
      'function add(a, b) {\n  return a + b;\n}\nconst x = 1;\nconst x = 1;\n',
    );
    okText(await call('read', { path: 'code.ts' }));
    const spacing = await call('edit', {
      path: 'code.ts',
      old_string: 'return  a + b;',
      new_string: 'return a - b;',
    });
    expect(textOf(spacing)).toMatch(/different whitespace or indentation at line 2/);
    const near = await call('edit', { path: 'code.ts', old_string: 'function ad(a, b) {', new_string: 'x' });
    expect(textOf(near)).toMatch(/closest lines are:\n {2}line 1: function add\(a, b\) \{/);
    const twice = await call('edit', {
      path: 'code.ts',
      old_string: 'const x = 1;',
      new_string: 'const y = 2;',
    });
    expect(textOf(twice)).toMatch(/occurs 2 times in code\.ts \(lines 4, 5\).*replace_all/);
    okText(
      await call('edit', {
        path: 'code.ts',
        old_string: 'const x = 1;',
        new_string: 'const y = 2;',
        replace_all: true,
      }),
    );
    expect(await readFile(join(dir, 'code.ts'), 'utf8')).toContain('const y = 2;\nconst y = 2;\n');
    expect(textOf(await call('edit', { path: 'code.ts', old_string: 'same', new_string: 'same' }))).toMatch(
      /identical/,
    );
    expect(textOf(await call('edit', { path: 'code.ts', old_string: '', new_string: 'x' }))).toMatch(
      /use write/,
    );
    expect(textOf(await call('edit', { path: 'code.ts', new_string: 'x' }))).toMatch(/INVALID_ARGUMENTS/);
    expect(textOf(await call('edit', { path: 'missing.ts', old_string: 'a', new_string: 'b' }))).toMatch(
      /does not exist; use write/,
    );
  });
});
