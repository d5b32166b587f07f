import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { ToolError } from '@toolplane/core';
import { isInside, toPosixRelative } from './inside.js';
import { type Mount, type MountTarget, findMount, normalizeMounts } from './mounts.js';
import { assertCleanPathText } from './path-text.js';
import { DEFAULT_PROTECTED_PATHS, createProtectedMatcher } from './protected-paths.js';

/** Options of {@link Workspace}. */
export interface WorkspaceOptions {
  /** The directory every path resolves inside. */
  readonly workspace: string;
  /** Further directories the tools may reach (absolute paths). */
  readonly extraRoots?: readonly string[];
  /** Globs of workspace-relative paths that are read-only; replaces the defaults. */
  readonly protectedPaths?: readonly string[];
  readonly mounts?: readonly Mount[];
}

/** A path on the host disk, checked to be inside a root. */
export interface DiskTarget {
  readonly kind: 'disk';
  /** Symlink-free absolute path (the real parent plus the new names for a path that does not exist). */
  readonly path: string;
  /** How the tools show the path: workspace-relative, or absolute inside an extra root. */
  readonly display: string;
  readonly exists: boolean;
}

/** A path served by a mounted backend. */
export interface MountedTarget extends MountTarget {
  readonly kind: 'mount';
  readonly display: string;
}

/** Where a tool path leads. */
export type ResolvedTarget = DiskTarget | MountedTarget;

// Bounds the walk up to the nearest existing parent (deeper than any real path).
const MAX_PATH_DEPTH = 4096;
// Linux PATH_MAX counts the terminating null byte: a path passed to the kernel has at most 4095.
const MAX_PATH_BYTES = 4095;

const shortened = (input: string): string => (input.length > 80 ? `${input.slice(0, 80)}...` : input);

function tooLong(argument: string, input: string, bytes?: number): ToolError {
  return new ToolError(
    'INVALID_ARGUMENTS',
    `${argument} "${shortened(input)}" is too long for the file system${bytes === undefined ? '' : ` (${bytes} bytes as a host path)`}: a name may have at most 255 bytes and a whole path ${MAX_PATH_BYTES}; use shorter names or fewer directory levels (bash can go deeper one cd at a time)`,
  );
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

function realRoot(path: string, what: string): string {
  if (typeof path !== 'string' || !isAbsolute(path)) {
    throw new ToolError('CONFIG_INVALID', `${what} must be an absolute path, got ${JSON.stringify(path)}`);
  }
  let real: string;
  try {
    real = realpathSync(resolve(path));
  } catch (error) {
    throw new ToolError('CONFIG_INVALID', `${what} "${path}" does not exist or cannot be read`, {
      cause: error,
    });
  }
  if (!statSync(real).isDirectory()) {
    throw new ToolError('CONFIG_INVALID', `${what} "${path}" is a file; pass a directory`);
  }
  return real;
}

/**
 * The confinement of every tool path: lexical checks first (`..`, absolute paths, prefix
 * siblings), then realpath checks of the target or, for a path that does not exist yet, of
 * its nearest existing parent, so a symlink can never lead outside.
 */
export class Workspace {
  /** The real (symlink-free) workspace directory. */
  readonly root: string;
  readonly extraRoots: readonly string[];
  /** Roots as configured, before realpath, so absolute paths spelled with them work too. */
  private readonly aliases: ReadonlyArray<readonly [string, string]>;
  private readonly mounts: readonly Mount[];
  private readonly isProtected: (relativePath: string) => boolean;

  constructor(options: WorkspaceOptions) {
    const configured = options.workspace;
    this.root = realRoot(configured, 'workspace');
    this.extraRoots = (options.extraRoots ?? []).map((root) => realRoot(root, 'extra root'));
    this.aliases = [
      [resolve(configured), this.root],
      ...(options.extraRoots ?? []).map((root, i) => [resolve(root), this.extraRoots[i] as string] as const),
    ];
    this.mounts = normalizeMounts(options.mounts ?? []);
    this.isProtected = createProtectedMatcher(options.protectedPaths ?? DEFAULT_PROTECTED_PATHS);
  }

  /** True when a real path is inside the workspace or an extra root. */
  contains(realPath: string): boolean {
    if (isInside(this.root, realPath)) return true;
    return this.extraRoots.some((root) => isInside(root, realPath));
  }

  /** How a real path is shown to the model. */
  display(realPath: string): string {
    if (isInside(this.root, realPath)) return toPosixRelative(this.root, realPath);
    return realPath;
  }

  /** Whether writes to this real path are refused by the protected-path list. */
  isProtectedPath(realPath: string): boolean {
    if (!isInside(this.root, realPath)) return false;
    return this.isProtected(toPosixRelative(this.root, realPath));
  }

  /** Resolves a tool path argument; throws a `ToolError` when it leaves the roots. */
  async resolve(input: string, argument = 'path'): Promise<ResolvedTarget> {
    assertCleanPathText(input, argument);
    const lexical = this.lexical(input, argument);
    if (isInside(this.root, lexical)) {
      const mounted = findMount(this.mounts, toPosixRelative(this.root, lexical));
      if (mounted) return { kind: 'mount', ...mounted, display: toPosixRelative(this.root, lexical) };
    }
    const { path, exists } = await this.realTarget(lexical, input, argument);
    return { kind: 'disk', path, exists, display: this.display(path) };
  }

  /** Resolves a path that must be on disk (not mounted), for search and shell tools. */
  async resolveOnDisk(input: string, argument = 'path'): Promise<DiskTarget> {
    const target = await this.resolve(input, argument);
    if (target.kind === 'mount') {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `${argument} "${input}" is served by a mounted backend, not the disk; use read, write or list for it`,
      );
    }
    return target;
  }

  /** Throws `DENIED` when the target may not be written. */
  assertWritable(target: ResolvedTarget): void {
    if (target.kind === 'disk' && this.isProtectedPath(target.path)) {
      throw new ToolError(
        'DENIED',
        `${target.display} is a protected path (read-only for tools); ask the user to change it, or configure protectedPaths`,
      );
    }
  }

  /**
   * Checks that an opened descriptor really is inside the roots (Linux `/proc/self/fd`), which
   * catches a symlink swapped in between the path check and the open. Returns the path the
   * descriptor really has, when the platform tells.
   */
  async assertOpenedInside(fd: number, display: string): Promise<string | undefined> {
    let actual: string;
    try {
      actual = await readlink(`/proc/self/fd/${fd}`);
    } catch {
      return undefined; // no /proc: the realpath check before the open is all there is
    }
    if (!this.contains(actual)) {
      throw new ToolError(
        'DENIED',
        `${display} changed into a link to a place outside the workspace; refused`,
        {
          details: { openedPath: actual },
        },
      );
    }
    return actual;
  }

  private lexical(input: string, argument: string): string {
    let absolute: string | undefined;
    if (isAbsolute(input)) {
      const normalized = resolve(input);
      for (const [alias, real] of this.aliases) {
        if (isInside(alias, normalized)) {
          absolute = join(real, normalized.slice(alias.length));
          break;
        }
        if (isInside(real, normalized)) {
          absolute = normalized;
          break;
        }
      }
    } else {
      absolute = resolve(this.root, input);
    }
    if (absolute === undefined || !this.contains(absolute)) {
      throw new ToolError(
        'DENIED',
        `${argument} "${input}" is outside the workspace; pass a path inside ${this.root}${this.extraRoots.length ? ` or ${this.extraRoots.join(', ')}` : ''}`,
      );
    }
    return absolute;
  }

  private async realTarget(
    lexical: string,
    input: string,
    argument: string,
  ): Promise<{ path: string; exists: boolean }> {
    const outside = (): ToolError =>
      new ToolError(
        'DENIED',
        `${argument} "${input}" leads outside the workspace through a symbolic link; pass a path inside ${this.root}`,
      );
    let current = lexical;
    const rest: string[] = [];
    for (let depth = 0; depth < MAX_PATH_DEPTH; depth++) {
      try {
        const real = await realpath(current);
        if (!this.contains(real)) throw outside();
        const info = rest.length > 0 ? await stat(real).catch(() => undefined) : undefined;
        if (info && !info.isDirectory()) {
          throw new ToolError(
            'INVALID_ARGUMENTS',
            `${argument} "${input}": ${this.display(real)} is a file, not a directory; pass a path that does not go through it`,
          );
        }
        const path = rest.length ? join(real, ...rest) : real;
        const bytes = Buffer.byteLength(path);
        if (bytes > MAX_PATH_BYTES) throw tooLong(argument, input, bytes);
        return { path, exists: rest.length === 0 };
      } catch (error) {
        if (ToolError.isInstance(error)) throw error;
        const code = errorCode(error);
        if (code === 'ELOOP')
          throw new ToolError('INVALID_ARGUMENTS', `${argument} "${input}" is a symbolic link loop`);
        if (code === 'ENAMETOOLONG') throw tooLong(argument, input);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      }
      // A dangling symlink would be followed by a later create; refuse it.
      const link = await lstat(current).catch(() => undefined);
      if (link?.isSymbolicLink()) {
        throw new ToolError(
          'DENIED',
          `${argument} "${input}" passes through a symbolic link whose target does not exist; refused`,
        );
      }
      if (link && rest.length > 0) {
        throw new ToolError('INVALID_ARGUMENTS', `${argument} "${input}": ${current} is not a directory`);
      }
      const parent = dirname(current);
      if (parent === current) break;
      rest.unshift(basename(current));
      current = parent;
    }
    throw outside();
  }
}
