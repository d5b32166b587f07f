import { chmod, lstat, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test/helpers.js';
import { Workspace } from '../workspace/workspace.js';
import { atomicWrite } from './atomic-write.js';

describe('atomicWrite', () => {
  let dir: string;
  let outside: string;
  let cleanups: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    const a = await makeTempDir('tp-atomic-');
    const b = await makeTempDir('tp-atomic-out-');
    dir = a.dir;
    outside = b.dir;
    cleanups = [a.cleanup, b.cleanup];
  });
  afterEach(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('replaces a symlink planted at the destination after the check, never writing through it', async () => {
    const workspace = new Workspace({ workspace: dir });
    const target = await workspace.resolve('report.txt');
    expect(target.kind === 'disk' && target.exists).toBe(false);
    await writeFile(join(outside, 'victim.txt'), 'untouched');
    // Planted between the check (resolve) and the write.
    await symlink(join(outside, 'victim.txt'), join(dir, 'report.txt'));
    await atomicWrite(workspace, join(dir, 'report.txt'), Buffer.from('new content'), 'report.txt');
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('untouched');
    expect((await lstat(join(dir, 'report.txt'))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(dir, 'report.txt'), 'utf8')).toBe('new content');
  });

  it('keeps the mode of the file it replaces and leaves no temp file behind', async () => {
    const workspace = new Workspace({ workspace: dir });
    await writeFile(join(dir, 'run.sh'), 'old');
    await chmod(join(dir, 'run.sh'), 0o700);
    await atomicWrite(workspace, join(dir, 'run.sh'), Buffer.from('new'), 'run.sh');
    expect((await stat(join(dir, 'run.sh'))).mode & 0o777).toBe(0o700);
    expect(await readdir(dir)).toEqual(['run.sh']);
  });
});
