import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { context, okText, useWorkspace } from '../helpers/index.js';

// edit keeps a file's byte order mark and UTF-16; write, which replaces the whole text, keeps
// them too: the model sends text, not bytes, and cannot say "UTF-16" any other way.

const ws = useWorkspace();

async function overwrite(initial: Buffer, content: string): Promise<Buffer> {
  const path = join(ws.dir, 'f.txt');
  await writeFile(path, initial);
  okText(await ws.provider.execute('read', { path: 'f.txt' }, context()));
  okText(await ws.provider.execute('write', { path: 'f.txt', content }, context()));
  return readFile(path);
}

const LE = Buffer.from([0xff, 0xfe]);
const BE = Buffer.from([0xfe, 0xff]);
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('write over a file with a byte order mark', () => {
  it('keeps UTF-16 LE and BE, and the UTF-8 BOM', async () => {
    const le = await overwrite(Buffer.concat([LE, Buffer.from('oud\n', 'utf16le')]), 'nieuw ✓\n');
    expect(le.equals(Buffer.concat([LE, Buffer.from('nieuw ✓\n', 'utf16le')]))).toBe(true);
    const be = await overwrite(Buffer.concat([BE, Buffer.from('oud\n', 'utf16le').swap16()]), 'nieuw\n');
    expect(be.equals(Buffer.concat([BE, Buffer.from('nieuw\n', 'utf16le').swap16()]))).toBe(true);
    const utf8 = await overwrite(Buffer.concat([BOM, Buffer.from('old\n')]), 'new\n');
    expect(utf8.equals(Buffer.concat([BOM, Buffer.from('new\n')]))).toBe(true);
  });

  it('does not add a second mark when the content starts with one, and writes plain UTF-8 files as UTF-8', async () => {
    const marked = await overwrite(Buffer.concat([BOM, Buffer.from('old\n')]), '\ufeffnew\n');
    expect(marked.equals(Buffer.concat([BOM, Buffer.from('new\n')]))).toBe(true);
    const plain = await overwrite(Buffer.from('old\n'), 'new ✓\n');
    expect(plain.equals(Buffer.from('new ✓\n'))).toBe(true);
  });
});
