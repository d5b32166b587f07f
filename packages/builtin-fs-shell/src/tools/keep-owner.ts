import { chmod, lchown, lstat } from 'node:fs/promises';
import type { ResolvedTarget } from '../workspace/workspace.js';

/** Who owns a file, and its permission bits. */
export interface Ownership {
  readonly uid: number;
  readonly gid: number;
  readonly mode: number;
}

/** The ownership of a regular file on disk at the target; undefined for mounts and new files. */
export async function ownershipOf(target: ResolvedTarget): Promise<Ownership | undefined> {
  if (target.kind !== 'disk') return undefined;
  const info = await lstat(target.path).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  return { uid: info.uid, gid: info.gid, mode: info.mode & 0o7777 };
}

/**
 * Gives the file written in place of another (a new inode, created by this process, so owned by
 * it) the owner and group the old one had: an agent running as root that edits a user's file
 * must not leave it root's. Only a process allowed to (root, or one changing the group to one
 * it is in) can; otherwise the file stays as written. `chown` clears set-user-ID and
 * set-group-ID bits, so the mode is put back after it.
 */
export async function restoreOwnership(target: ResolvedTarget, before: Ownership | undefined): Promise<void> {
  if (!before || target.kind !== 'disk') return;
  const info = await lstat(target.path).catch(() => undefined);
  if (!info?.isFile() || (info.uid === before.uid && info.gid === before.gid)) return;
  try {
    await lchown(target.path, before.uid, before.gid);
    const now = await lstat(target.path);
    if ((now.mode & 0o7777) !== before.mode) await chmod(target.path, before.mode);
  } catch {
    // not allowed (not root): the file keeps this process's ownership
  }
}
