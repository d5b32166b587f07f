import type { FileSystem } from '@toolplane/core';

/**
 * A part of the workspace served by another backend (for example context files kept in a
 * database). `path` is workspace-relative (`memory`, `SOUL.md`); the backend receives paths
 * relative to it, `.` for the mount point itself.
 */
export interface Mount {
  readonly path: string;
  readonly fileSystem: FileSystem;
}

/** A path that routes to a mount. */
export interface MountTarget {
  readonly mount: Mount;
  /** Path inside the mount's backend. */
  readonly innerPath: string;
}

/** Normalizes mount paths (no leading `./`, no trailing slash) and sorts longest first. */
export function normalizeMounts(mounts: readonly Mount[]): Mount[] {
  return mounts
    .map((mount) => ({ ...mount, path: mount.path.replace(/^\.\/+/, '').replace(/\/+$/, '') }))
    .filter((mount) => mount.path !== '' && mount.path !== '.')
    .sort((a, b) => b.path.length - a.path.length);
}

/** The mount a workspace-relative POSIX path falls under, if any. */
export function findMount(mounts: readonly Mount[], relativePath: string): MountTarget | undefined {
  for (const mount of mounts) {
    if (relativePath === mount.path) return { mount, innerPath: '.' };
    if (relativePath.startsWith(`${mount.path}/`)) {
      return { mount, innerPath: relativePath.slice(mount.path.length + 1) };
    }
  }
  return undefined;
}
