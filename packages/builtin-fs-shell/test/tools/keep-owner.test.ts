import { chmod, chown, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { context, inCI, okText, useWorkspace } from '../helpers/index.js';

// write, edit and notebook_edit put a new file in place of the old one (atomic rename): the new
// file belongs to this process unless it is given back. Only root can give a file to another
// user, so the test needs root (CI runs as root here; elsewhere it says why it skips).

const ws = useWorkspace();
const isRoot = process.getuid?.() === 0;
if (!isRoot && inCI) throw new Error('keep-owner.test.ts needs root in CI, to own files as another user');
if (!isRoot) console.warn('keep-owner.test.ts skipped: giving a file to another user needs root');

const NOTEBOOK = JSON.stringify({
  cells: [{ cell_type: 'markdown', metadata: {}, source: 'old' }],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 4,
});

describe.skipIf(!isRoot)('ownership of rewritten files', () => {
  it('write, edit and notebook_edit keep the owner, group and setgid mode of the file they replace', async () => {
    const files: Array<[string, string, string, Record<string, unknown>]> = [
      ['w.txt', 'old\n', 'write', { content: 'new\n' }],
      ['e.txt', 'old\n', 'edit', { old_string: 'old', new_string: 'new' }],
      ['n.ipynb', NOTEBOOK, 'notebook_edit', { cell_index: 0, new_source: 'new' }],
    ];
    for (const [name, content, tool, args] of files) {
      const path = join(ws.dir, name);
      await writeFile(path, content);
      await chown(path, 4321, 4322);
      await chmod(path, 0o2754);
      okText(await ws.provider.execute('read', { path: name }, context()));
      okText(await ws.provider.execute(tool, { path: name, ...args }, context()));
      const info = await stat(path);
      expect({ name, uid: info.uid, gid: info.gid, mode: (info.mode & 0o7777).toString(8) }).toEqual({
        name,
        uid: 4321,
        gid: 4322,
        mode: '2754',
      });
    }
  });

  it('a new file belongs to this process', async () => {
    okText(await ws.provider.execute('write', { path: 'fresh.txt', content: 'x' }, context()));
    expect((await stat(join(ws.dir, 'fresh.txt'))).uid).toBe(0);
  });
});
