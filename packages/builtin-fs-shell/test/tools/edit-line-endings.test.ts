import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { context, failure, okText, useWorkspace } from '../helpers/index.js';

// read shows lines without their carriage returns, so the model writes old_string and
// new_string with bare "\n": the edit must find the text whatever the line endings under it,
// and write the new lines the way the replaced text was written.

const ws = useWorkspace();

async function editFile(content: string | Buffer, args: Record<string, unknown>): Promise<Buffer> {
  const path = join(ws.dir, 'f.txt');
  await writeFile(path, content);
  okText(await ws.provider.execute('read', { path: 'f.txt' }, context()));
  okText(await ws.provider.execute('edit', { path: 'f.txt', ...args }, context()));
  return readFile(path);
}

describe('edit across line endings', () => {
  it('does not double the carriage return of a new_string that already has CRLF', async () => {
    const after = await editFile('a\r\nb\r\nc\r\n', { old_string: 'a\nb', new_string: 'A\r\nB' });
    expect(after.toString()).toBe('A\r\nB\r\nc\r\n');
  });

  it('writes lines a new_string adds in the CRLF of the file, not as bare LF', async () => {
    const after = await editFile('a\r\nb\r\nc\r\n', { old_string: 'b', new_string: 'b\nadded' });
    expect(after.toString()).toBe('a\r\nb\r\nadded\r\nc\r\n');
  });

  it('finds an old_string that spans a CRLF line in a file of mostly LF, and keeps that CRLF', async () => {
    const after = await editFile('one\ntwo\r\nthree\nfour\n', {
      old_string: 'two\nthree',
      new_string: 'TWO\nTHREE',
    });
    expect(after.toString()).toBe('one\nTWO\r\nTHREE\nfour\n');
  });

  it('finds an old_string that spans CRLF and LF breaks at once, writing the file’s usual ending', async () => {
    const after = await editFile('a\r\nb\nc\r\nd\r\n', { old_string: 'a\nb\nc', new_string: 'A\nB\nC' });
    expect(after.toString()).toBe('A\r\nB\r\nC\r\nd\r\n');
  });

  it('counts a text that appears with either ending as appearing twice', async () => {
    await writeFile(join(ws.dir, 'f.txt'), 'x\ny\r\nx\r\ny\n');
    okText(await ws.provider.execute('read', { path: 'f.txt' }, context()));
    const error = failure(
      await ws.provider.execute('edit', { path: 'f.txt', old_string: 'x\ny', new_string: 'z' }, context()),
    );
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toContain('occurs 2 times');
    okText(
      await ws.provider.execute(
        'edit',
        { path: 'f.txt', old_string: 'x\ny', new_string: 'z\nw', replace_all: true },
        context(),
      ),
    );
    expect(await readFile(join(ws.dir, 'f.txt'), 'utf8')).toBe('z\nw\r\nz\r\nw\n');
  });

  it('keeps a BOM and UTF-16 while matching across CRLF', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const utf8 = await editFile(Buffer.concat([bom, Buffer.from('p\r\nq\nr\n')]), {
      old_string: 'p\nq',
      new_string: 'P\nQ\nQ2',
    });
    expect(utf8.equals(Buffer.concat([bom, Buffer.from('P\r\nQ\r\nQ2\nr\n')]))).toBe(true);
    const utf16 = await editFile(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('één\ntwee\r\ndrie\n', 'utf16le')]),
      { old_string: 'twee\ndrie', new_string: 'TWEE\nDRIE' },
    );
    expect(utf16.subarray(2).toString('utf16le')).toBe('één\nTWEE\r\nDRIE\n');
  });

  it('writes an old_string given with carriage returns as it is given', async () => {
    const after = await editFile('a\r\nb\nc\n', { old_string: 'a\r\nb', new_string: 'A\nB' });
    expect(after.toString()).toBe('A\nB\nc\n');
  });
});

describe('edit with overlapping occurrences', () => {
  it('refuses an old_string whose occurrences overlap as not unique', async () => {
    await writeFile(join(ws.dir, 'f.txt'), 'xaaax\n');
    okText(await ws.provider.execute('read', { path: 'f.txt' }, context()));
    const error = failure(
      await ws.provider.execute('edit', { path: 'f.txt', old_string: 'aa', new_string: 'b' }, context()),
    );
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toMatch(/overlap/);
    expect(await readFile(join(ws.dir, 'f.txt'), 'utf8')).toBe('xaaax\n');
  });

  it('replaces overlapping occurrences left to right with replace_all, and counts what it replaced', async () => {
    await writeFile(join(ws.dir, 'f.txt'), 'aaaaa\n');
    okText(await ws.provider.execute('read', { path: 'f.txt' }, context()));
    const text = okText(
      await ws.provider.execute(
        'edit',
        { path: 'f.txt', old_string: 'aa', new_string: 'b', replace_all: true },
        context(),
      ),
    );
    expect(text).toContain('2 replacements');
    expect(await readFile(join(ws.dir, 'f.txt'), 'utf8')).toBe('bba\n');
  });
});
