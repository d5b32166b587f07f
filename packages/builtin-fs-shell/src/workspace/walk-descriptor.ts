import { closeSync, constants, existsSync, openSync, readlinkSync } from 'node:fs';

/** Whether descriptors can be read through `/proc/self/fd` (Linux). */
export const HAS_PROC_FD = existsSync('/proc/self/fd');

/**
 * Opens a directory of a walk without following a link at its last name, and checks that the
 * descriptor really is at `expected` (an absolute real path): a directory swapped for a
 * symbolic link since the walk saw it, or one whose parent was, is not opened. Undefined when
 * it is gone, is no directory any more, or is somewhere else. Without `/proc` the check is the
 * open alone.
 */
export function openWalkedDirectory(expected: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(expected, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  if (!HAS_PROC_FD) return fd;
  let actual: string | undefined;
  try {
    actual = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    actual = undefined;
  }
  if (actual !== expected) {
    closeSync(fd);
    return undefined;
  }
  return fd;
}

/** The path that reaches `name` inside the directory open as `fd`, whatever became of its path. */
export function throughDescriptor(fd: number, directory: string, name: string): string {
  return HAS_PROC_FD ? `/proc/self/fd/${fd}/${name}` : `${directory}/${name}`;
}
