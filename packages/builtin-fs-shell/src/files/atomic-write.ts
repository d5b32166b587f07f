import { randomBytes } from 'node:crypto';
import { type Stats, constants } from 'node:fs';
import { type FileHandle, mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ToolError } from '@toolplane/core';
import type { Workspace } from '../workspace/workspace.js';

/** The version of a file a write replaces: `absent` when the caller found no file there. */
export type ExpectedVersion = { readonly size: number; readonly mtimeMs: number } | 'absent';

/** Options of {@link atomicWrite}. */
export interface AtomicWriteOptions {
  readonly signal?: AbortSignal;
  /**
   * What the caller saw at the destination when it decided to write: checked again just
   * before the rename, so a change another process made meanwhile is not overwritten.
   */
  readonly unchangedSince?: ExpectedVersion;
}

/**
 * Writes a file atomically: the data goes to a new temp file in the same directory (opened
 * with O_EXCL | O_NOFOLLOW and checked to be inside the workspace), then `rename` replaces the
 * destination entry. `rename` never follows a symlink planted at the destination, and readers
 * see either the old or the new content. An existing file keeps its mode, owner and group. With
 * `unchangedSince`, a destination that changed since the caller looked is left as it is
 * (`DENIED`); the window left is the instant between that last check and the rename.
 */
export async function atomicWrite(
  workspace: Workspace,
  path: string,
  data: Uint8Array,
  display: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { signal, unchangedSince } = options;
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const realDirectory = await realpath(directory);
  if (!workspace.contains(realDirectory)) {
    throw new ToolError('DENIED', `the directory of ${display} now leads outside the workspace; refused`);
  }
  const destination = join(realDirectory, basename(path));
  const existing = await stat(destination).catch(() => undefined);
  if (existing?.isDirectory()) {
    throw new ToolError('INVALID_ARGUMENTS', `${display} is a directory; pass a file path`);
  }
  const mode = existing ? existing.mode & 0o7777 : undefined;
  // A name may have 255 bytes: the temp name of a long one keeps only its start.
  const name = basename(path);
  const stem = Buffer.byteLength(name) > 200 ? Array.from(name).slice(0, 50).join('') : name;
  const temp = join(realDirectory, `.${stem}.${randomBytes(6).toString('hex')}.tmp`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(temp, flags, mode ?? 0o666);
  let renamed = false;
  // Where the temp file really is, even if a directory on the way was swapped for a symlink.
  let actualTemp = temp;
  try {
    try {
      actualTemp = (await workspace.assertOpenedInside(handle.fd, display)) ?? temp;
    } catch (error) {
      const opened = ToolError.isInstance(error) ? error.details?.openedPath : undefined;
      if (typeof opened === 'string') actualTemp = opened;
      throw error;
    }
    await handle.writeFile(data, signal ? { signal } : {});
    if (existing?.isFile()) await giveOwnerBack(handle, existing);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.close();
    if (unchangedSince !== undefined) await assertUnchanged(destination, unchangedSince, display);
    await rename(temp, destination);
    renamed = true;
  } finally {
    if (!renamed) {
      await handle.close().catch(() => {});
      await unlink(actualTemp).catch(() => {});
    }
  }
}

/**
 * Gives the temp file (created by this process, so owned by it) the owner and group of the file
 * it replaces, before the rename: an agent running as root that edits a user's file must not
 * leave it root's. Only a process allowed to (root, or one changing the group to one it is in)
 * can; otherwise the file stays as written. `chown` clears set-user-ID and set-group-ID bits:
 * the caller sets the mode after it.
 */
async function giveOwnerBack(handle: FileHandle, replaced: Stats): Promise<void> {
  const written = await handle.stat();
  if (written.uid === replaced.uid && written.gid === replaced.gid) return;
  await handle.chown(replaced.uid, replaced.gid).catch(() => {
    // not allowed (not root): the file keeps this process's ownership
  });
}

/** Throws `DENIED` when the file at `destination` is no longer the version the caller saw. */
async function assertUnchanged(
  destination: string,
  expected: ExpectedVersion,
  display: string,
): Promise<void> {
  const now = await stat(destination).catch(() => undefined);
  if (expected === 'absent') {
    if (now === undefined) return;
    throw new ToolError(
      'DENIED',
      `${display} was created by another process while this call was writing it; nothing was written: call read on it, then retry`,
    );
  }
  if (now !== undefined && now.size === expected.size && now.mtimeMs === expected.mtimeMs) return;
  throw new ToolError(
    'DENIED',
    `${display} was ${now === undefined ? 'removed' : 'changed'} on disk by another process while this call was writing it; nothing was written: call read on it again, then retry`,
  );
}
