import { lstatSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Paths inside the workspace that a sandboxed command may read but not write: what would run
 * code on the host later (git hooks, git config aliases and filters, shell start-up files), or
 * change what tools and servers toolplane starts (`.mcp.json`, toolplane's own config).
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  '.git/hooks',
  '.git/config',
  '.gitmodules',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.mcp.json',
  '.toolplane',
  'toolplane.config.json',
  'toolplane.config.yaml',
  'toolplane.config.yml',
];

/** A protected path as the sandbox mounts it. */
export interface ProtectedMount {
  /** Relative to the workspace, with `/` separators. */
  readonly relative: string;
  /** The host path. */
  readonly hostPath: string;
}

/**
 * The directories between the workspace and its protected paths (`.git` for `.git/hooks`)
 * that exist: a sandbox binds each over itself read-write, so it is a mount point, which
 * cannot be renamed or removed. Otherwise `mv .git .git-old` would carry the read-only
 * mounts away and leave a fresh, writable `.git/config` in their place.
 */
export function protectedAnchors(workspace: string, mounts: readonly ProtectedMount[]): ProtectedMount[] {
  const anchors = new Map<string, ProtectedMount>();
  for (const mount of mounts) {
    const parts = mount.relative.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const relative = parts.slice(0, depth).join('/');
      const hostPath = join(workspace, relative);
      try {
        if (!lstatSync(hostPath).isDirectory()) continue;
      } catch {
        continue;
      }
      anchors.set(relative, { relative, hostPath });
    }
  }
  return [...anchors.values()];
}
