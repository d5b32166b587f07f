import { link, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, useWorkspace } from '../helpers/index.js';

// A hard link is the same file under a second name: no path check can tell that a name inside
// the workspace is also a name outside it. What the tools guarantee is that they never write
// through one: write and edit replace the workspace's name with a new file (rename), so the
// file outside keeps its content.

const ws = useWorkspace();
let outside: { dir: string; cleanup: () => Promise<void> };

beforeEach(async () => {
  outside = await makeTempDir('tp-outside-');
});
afterEach(async () => {
  await outside.cleanup();
});

describe('hard links to files outside the workspace', () => {
  it('write and edit replace the link instead of changing the file outside', async () => {
    const secret = join(outside.dir, 'secret.txt');
    await writeFile(secret, 'outside line\n');
    const inside = join(ws.dir, 'linked.txt');
    await link(secret, inside);
    expect((await stat(secret)).nlink).toBe(2);

    okText(await ws.provider.execute('read', { path: 'linked.txt' }, context()));
    okText(
      await ws.provider.execute(
        'edit',
        { path: 'linked.txt', old_string: 'outside', new_string: 'edited' },
        context(),
      ),
    );
    expect(await readFile(secret, 'utf8')).toBe('outside line\n');
    expect(await readFile(inside, 'utf8')).toBe('edited line\n');
    expect((await stat(secret)).nlink).toBe(1);

    await link(secret, join(ws.dir, 'again.txt'));
    okText(await ws.provider.execute('read', { path: 'again.txt' }, context()));
    okText(await ws.provider.execute('write', { path: 'again.txt', content: 'written\n' }, context()));
    expect(await readFile(secret, 'utf8')).toBe('outside line\n');
    expect(await readFile(join(ws.dir, 'again.txt'), 'utf8')).toBe('written\n');
  });
});
