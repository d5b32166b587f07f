import { execFileSync } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { context, failure, okText, useWorkspace } from '../helpers/index.js';

// Entries a hostile command (or checkout) can leave in the workspace: names holding line breaks
// or bidirectional controls, and FIFOs and sockets where a file is expected.

const ws = useWorkspace();
let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe('names list and glob cannot show as they are', () => {
  it('shows a name with a line break or a bidirectional control quoted, so it cannot fake entries', async () => {
    await mkdir(join(ws.dir, 'd'));
    await writeFile(join(ws.dir, 'd', 'plain.txt'), 'p');
    await writeFile(join(ws.dir, 'd', 'evil\n.env  10 B.txt'), 'e');
    await writeFile(join(ws.dir, 'd', 'invoice\u202etxt.exe'), 'i');
    const listed = okText(await ws.provider.execute('list', { path: 'd' }, context()));
    expect(listed.split('\n')).toEqual([
      'd/ (3 entries)',
      '"evil\\n.env  10 B.txt"  1 B',
      '"invoice\\u202etxt.exe"  1 B',
      'plain.txt  1 B',
      '(2 names hold line breaks, control or invisible characters: shown quoted with escapes; the file tools cannot open them, rename them with bash)',
    ]);
    const globbed = okText(await ws.provider.execute('glob', { pattern: 'd/*', sort: 'name' }, context()));
    expect(globbed.split('\n')).toEqual([
      'd/"evil\\n.env  10 B.txt"',
      'd/"invoice\\u202etxt.exe"',
      'd/plain.txt',
      '',
      '(2 names hold line breaks, control or invisible characters: shown quoted with escapes; the file tools cannot open them, rename them with bash)',
    ]);
  });
});

describe('write to a path that is not a regular file', () => {
  it('refuses a FIFO and a socket with INVALID_ARGUMENTS and leaves them in place', async () => {
    execFileSync('mkfifo', [join(ws.dir, 'pipe')]);
    server = createServer();
    await new Promise<void>((resolve) => server?.listen(join(ws.dir, 'sock'), resolve));
    for (const name of ['pipe', 'sock']) {
      const error = failure(await ws.provider.execute('write', { path: name, content: 'x' }, context()));
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain(`${name} is not a regular file`);
      const info = await stat(join(ws.dir, name));
      expect(info.isFIFO() || info.isSocket()).toBe(true);
    }
    // A regular file next to them is still written.
    okText(await ws.provider.execute('write', { path: 'file.txt', content: 'ok' }, context()));
    expect(await readFile(join(ws.dir, 'file.txt'), 'utf8')).toBe('ok');
  });
});
