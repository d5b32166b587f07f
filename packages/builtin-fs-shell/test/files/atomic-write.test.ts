import { chmod, lstat, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/index.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { atomicWrite } from '../../src/files/atomic-write.js';

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

  describe('with the version the caller saw', () => {
    const versionOf = async (name: string) => {
      const info = await stat(join(dir, name));
      return { size: info.size, mtimeMs: info.mtimeMs };
    };
    const denied = (name: string, data: string, seen: Parameters<typeof atomicWrite>[4]) =>
      atomicWrite(new Workspace({ workspace: dir }), join(dir, name), Buffer.from(data), name, seen).then(
        () => 'written',
        (error: { code?: string; message: string }) => `${error.code}: ${error.message}`,
      );

    it('writes when the file is still that version', async () => {
      await writeFile(join(dir, 'a.txt'), 'old');
      expect(await denied('a.txt', 'new', { unchangedSince: await versionOf('a.txt') })).toBe('written');
      expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('new');
    });

    it('keeps what another process wrote after the caller looked, and leaves no temp file', async () => {
      await writeFile(join(dir, 'a.txt'), 'old');
      const seen = await versionOf('a.txt');
      await writeFile(join(dir, 'a.txt'), 'their change');
      expect(await denied('a.txt', 'mine', { unchangedSince: seen })).toBe(
        'DENIED: a.txt was changed on disk by another process while this call was writing it; nothing was written: call read on it again, then retry',
      );
      expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('their change');
      expect(await readdir(dir)).toEqual(['a.txt']);
    });

    it('keeps a file another process created where the caller found none, and refuses over a removed one', async () => {
      await writeFile(join(dir, 'b.txt'), 'theirs');
      expect(await denied('b.txt', 'mine', { unchangedSince: 'absent' })).toMatch(
        /^DENIED: b.txt was created by another process/,
      );
      expect(await readFile(join(dir, 'b.txt'), 'utf8')).toBe('theirs');
      const seen = await versionOf('b.txt');
      await rm(join(dir, 'b.txt'));
      expect(await denied('b.txt', 'mine', { unchangedSince: seen })).toMatch(
        /^DENIED: b.txt was removed on disk/,
      );
      expect(await readdir(dir)).toEqual([]);
    });
  });
});
