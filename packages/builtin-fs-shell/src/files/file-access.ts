import { constants } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { type FileStat, ToolError } from '@toolplane/core';
import type { ResolvedTarget, Workspace } from '../workspace/workspace.js';
import { atomicWrite } from './atomic-write.js';
import { formatBytes } from './sniff.js';

/** The key a session's read records use for a target. */
export function recordKey(target: ResolvedTarget): string {
  return target.kind === 'disk' ? target.path : `mount:${target.mount.path}:${target.innerPath}`;
}

/** Stat of a target, undefined when it does not exist. */
export async function statTarget(target: ResolvedTarget): Promise<FileStat | undefined> {
  if (target.kind === 'mount') return target.mount.fileSystem.stat(target.innerPath);
  const info = await stat(target.path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!info) return undefined;
  return {
    type: info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other',
    size: info.size,
    mtimeMs: info.mtimeMs,
    mode: info.mode & 0o7777,
  };
}

/** Opens a disk file for reading without following a final symlink, and checks where it landed. */
export async function openForRead(workspace: Workspace, path: string, display: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO planted in the workspace must not hang the call.
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new ToolError('INVALID_ARGUMENTS', `${display} does not exist; check the path with list or glob`);
    if (code === 'ELOOP')
      throw new ToolError('DENIED', `${display} became a symbolic link after it was checked; refused`);
    if (code === 'EACCES') throw new ToolError('DENIED', `${display} is not readable (permission denied)`);
    throw error;
  }
  try {
    await workspace.assertOpenedInside(handle.fd, display);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/** Reads a whole (small) file from disk or a mount, refusing files over `maxBytes`. */
export async function readWhole(
  workspace: Workspace,
  target: ResolvedTarget,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  if (target.kind === 'mount') {
    const data = await target.mount.fileSystem.readFile(target.innerPath, signal);
    if (data.length > maxBytes) {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `${target.display} is ${formatBytes(data.length)}, over the ${formatBytes(maxBytes)} limit of this tool`,
      );
    }
    return data;
  }
  const handle = await openForRead(workspace, target.path, target.display);
  try {
    const info = await handle.stat();
    if (info.isDirectory())
      throw new ToolError('INVALID_ARGUMENTS', `${target.display} is a directory; use list`);
    if (info.size > maxBytes) {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `${target.display} is ${formatBytes(info.size)}, over the ${formatBytes(maxBytes)} limit of this tool; use bash with sed or a script`,
      );
    }
    return await handle.readFile(signal ? { signal } : {});
  } finally {
    await handle.close();
  }
}

/**
 * Writes a whole file to disk (atomically) or a mount. `before` is what the caller saw there
 * (undefined: no file): on disk, a change another process made since is not overwritten.
 */
export async function writeWhole(
  workspace: Workspace,
  target: ResolvedTarget,
  data: Uint8Array,
  before: FileStat | undefined,
  signal?: AbortSignal,
): Promise<void> {
  if (target.kind === 'mount') {
    await target.mount.fileSystem.writeFile(target.innerPath, data, signal);
    return;
  }
  await atomicWrite(workspace, target.path, data, target.display, {
    ...(signal ? { signal } : {}),
    unchangedSince: before ? { size: before.size, mtimeMs: before.mtimeMs } : 'absent',
  });
}
