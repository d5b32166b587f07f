import { lstatSync, mkdirSync, rmdirSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import type { ProtectedMount } from './protected-paths.js';

/** One placeholder this process made, and how many sandboxes mount it now. */
interface Placeholder {
  readonly mount: ProtectedMount;
  readonly dev: number;
  readonly ino: number;
  users: number;
}

/** The protected paths one sandbox mounts, and what gives its placeholders back. */
export interface ProtectedLayout {
  /** Read-only over the workspace: the protected paths that exist, and placeholders for the rest. */
  readonly mounts: readonly ProtectedMount[];
  /** Gives the placeholders back; the last sandbox to give one back removes it. Idempotent. */
  release(): void;
}

/** The placeholders this process made, by host path, shared by its executors. */
const placeholders = new Map<string, Placeholder>();

const hostPathOf = (workspace: string, relative: string): string => join(workspace, relative);

/** Placeholders this process holds now (for tests). */
export function heldPlaceholders(): number {
  return placeholders.size;
}

function relativeOf(path: string): string | undefined {
  const relative = normalize(path).split(sep).join('/').replace(/\/+$/, '');
  if (relative === '' || relative === '.' || relative.startsWith('..') || relative.startsWith('/'))
    return undefined;
  return relative;
}

/**
 * The protected paths of a workspace, ready to be mounted read-only in a sandbox. One that
 * exists is mounted as it is (a symbolic link is skipped: mounting it would protect where it
 * points). One that does not exist gets a placeholder, so that a command cannot create it (a
 * `.git/hooks/pre-commit`, a `.bashrc`): the first missing directory of its path (`.git` when
 * the workspace has none) is made as an empty, read-only directory on the host and mounted
 * read-only over itself. An empty directory is invisible to `git status` and `git add`, and a
 * directory named `.git` that holds nothing is skipped by git's repository discovery, so the
 * placeholders do not change what git sees. They exist while a sandbox of the executor mounts
 * them, and the last one to go removes them (only when they are still the empty directory made
 * here). They are counted per process, so executors of one process on one workspace share them.
 */
export class ProtectedPlaceholders {
  private readonly relatives: readonly string[];

  constructor(
    private readonly workspace: string,
    paths: readonly string[],
  ) {
    const relatives = new Set<string>();
    for (const path of paths) {
      const relative = relativeOf(path);
      if (relative !== undefined) relatives.add(relative);
    }
    this.relatives = [...relatives];
  }

  /** The mounts of one new sandbox; call `release()` once it is gone. */
  acquire(): ProtectedLayout {
    const mounts = new Map<string, ProtectedMount>();
    const held: Placeholder[] = [];
    for (const relative of this.relatives) {
      // A placeholder this process holds exists on the host, but must be counted, not taken as found.
      let placeholder = this.knownPlaceholder(relative);
      if (!placeholder) {
        const existing = this.existing(relative);
        if (existing === 'skip') continue;
        if (existing) {
          mounts.set(relative, existing);
          continue;
        }
        placeholder = this.placeholderFor(relative);
      }
      if (!placeholder || mounts.has(placeholder.mount.relative)) continue;
      placeholder.users++;
      held.push(placeholder);
      mounts.set(placeholder.mount.relative, placeholder.mount);
    }
    let released = false;
    return {
      mounts: [...mounts.values()],
      release: () => {
        if (released) return;
        released = true;
        for (const placeholder of held) this.giveBack(placeholder);
      },
    };
  }

  /** The placeholder this process holds for the path or one of its parents. */
  private knownPlaceholder(relative: string): Placeholder | undefined {
    const parts = relative.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      const known = placeholders.get(hostPathOf(this.workspace, parts.slice(0, depth).join('/')));
      if (known) return known;
    }
    return undefined;
  }

  /** The mount of a path that exists, 'skip' for a symbolic link, undefined when it is absent. */
  private existing(relative: string): ProtectedMount | 'skip' | undefined {
    const hostPath = join(this.workspace, relative);
    try {
      return lstatSync(hostPath).isSymbolicLink() ? 'skip' : { relative, hostPath };
    } catch {
      return undefined;
    }
  }

  /** The placeholder of an absent path: its first missing directory, made when needed. */
  private placeholderFor(relative: string): Placeholder | undefined {
    const parts = relative.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      const prefix = parts.slice(0, depth).join('/');
      const known = placeholders.get(hostPathOf(this.workspace, prefix));
      if (known) return known;
      const hostPath = join(this.workspace, prefix);
      let info: ReturnType<typeof lstatSync> | undefined;
      try {
        info = lstatSync(hostPath);
      } catch {
        info = undefined;
      }
      if (info) {
        // A file or link in the way (`.git` as a worktree's gitdir file): nothing can be made below it.
        if (!info.isDirectory() || depth === parts.length) return undefined;
        continue;
      }
      try {
        mkdirSync(hostPath, { mode: 0o555 });
        const made = lstatSync(hostPath);
        const placeholder: Placeholder = {
          mount: { relative: prefix, hostPath },
          dev: made.dev,
          ino: made.ino,
          users: 0,
        };
        placeholders.set(hostPath, placeholder);
        return placeholder;
      } catch {
        // Made by someone else meanwhile (then it is protected as it exists), or not makeable.
        const now = this.existing(prefix);
        return now && now !== 'skip' ? { mount: now, dev: -1, ino: -1, users: 0 } : undefined;
      }
    }
    return undefined;
  }

  private giveBack(placeholder: Placeholder): void {
    if (placeholder.ino === -1) return;
    placeholder.users--;
    if (placeholder.users > 0) return;
    if (placeholders.get(placeholder.mount.hostPath) === placeholder)
      placeholders.delete(placeholder.mount.hostPath);
    try {
      const now = lstatSync(placeholder.mount.hostPath);
      // rmdir refuses a directory someone filled meanwhile: it then stays, with what it holds.
      if (now.dev === placeholder.dev && now.ino === placeholder.ino) rmdirSync(placeholder.mount.hostPath);
    } catch {
      // gone already, or filled on the host
    }
  }
}
