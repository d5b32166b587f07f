import { constants, existsSync } from 'node:fs';
import { type FileHandle, lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type DirEntry, type Tool, ToolError, type ToolResult, defineTool, ok } from '@toolplane/core';
import { z } from 'zod';
import { formatBytes } from '../files/sniff.js';
import type { ResolvedTarget } from '../workspace/workspace.js';
import type { ToolDeps } from './deps.js';
import { needsQuoting, quotedNote, showPath } from './shown-path.js';

/** Directory names `list`, `glob` and `grep` skip unless asked not to. */
export const SKIPPED_DIRECTORIES: readonly string[] = ['.git', 'node_modules'];

const input = z.object({
  path: z.string().optional().describe('Directory, relative to the workspace (default: the workspace)'),
  depth: z
    .number()
    .int()
    .min(1)
    .max(10)
    .optional()
    .describe('Levels to descend (default 1: only this directory)'),
  limit: z.number().int().min(1).max(10_000).optional().describe('Most entries to return (default 500)'),
  include_ignored: z.boolean().optional().describe('Also descend into .git and node_modules (default false)'),
});

interface Listed {
  readonly path: string;
  readonly type: DirEntry['type'];
  readonly size?: number;
}

type Reader = (relative: string) => Promise<Array<{ name: string; type: DirEntry['type']; size?: number }>>;

/**
 * Opens a directory of the walk without following a link at its last name, and checks where the
 * descriptor really is: a directory swapped for a symbolic link to the outside after it was
 * checked (or, for a subdirectory, after its parent was read) is never read. Undefined when it
 * is gone or is no directory any more.
 */
async function openDirectory(
  deps: ToolDeps,
  directory: string,
  display: string,
): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(directory, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return undefined;
    throw error;
  }
  try {
    await deps.workspace.assertOpenedInside(handle.fd, display);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

function diskReader(deps: ToolDeps, root: string, display: string): Reader {
  return async (relative) => {
    const directory = join(root, relative);
    const handle = await openDirectory(deps, directory, display);
    if (!handle) {
      // Removed (or replaced) since it was checked or listed: a build or a command running beside the call.
      if (relative === '')
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `${display} no longer exists as a directory; list its parent`,
        );
      return [];
    }
    try {
      // Read through the checked descriptor, not the path, which may have changed since.
      const opened = existsSync('/proc/self/fd') ? `/proc/self/fd/${handle.fd}` : directory;
      const entries = await readdir(opened, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
        throw error;
      });
      return await Promise.all(
        entries.map(async (entry) => {
          const type: DirEntry['type'] = entry.isDirectory()
            ? 'directory'
            : entry.isFile()
              ? 'file'
              : entry.isSymbolicLink()
                ? 'symlink'
                : 'other';
          if (type !== 'file') return { name: entry.name, type };
          const info = await lstat(join(opened, entry.name)).catch(() => undefined);
          return info ? { name: entry.name, type, size: info.size } : { name: entry.name, type };
        }),
      );
    } finally {
      await handle.close();
    }
  };
}

function mountReader(target: ResolvedTarget & { kind: 'mount' }): Reader {
  const fileSystem = target.mount.fileSystem;
  const inner = (relative: string): string =>
    relative === ''
      ? target.innerPath
      : target.innerPath === '.'
        ? relative
        : `${target.innerPath}/${relative}`;
  return async (relative) => {
    const entries = await fileSystem.readdir(inner(relative));
    return Promise.all(
      entries.map(async (entry) => {
        if (entry.type !== 'file') return { name: entry.name, type: entry.type };
        const info = await fileSystem.stat(
          `${inner(relative) === '.' ? '' : `${inner(relative)}/`}${entry.name}`,
        );
        return info
          ? { name: entry.name, type: entry.type, size: info.size }
          : { name: entry.name, type: entry.type };
      }),
    );
  };
}

function byTypeThenName(a: { name: string; type: string }, b: { name: string; type: string }): number {
  const dirA = a.type === 'directory' ? 0 : 1;
  const dirB = b.type === 'directory' ? 0 : 1;
  return dirA - dirB || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** The `list` tool. */
export function createListTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'list',
    title: 'List directory',
    description:
      'List a directory: entries with type and size (optionally a few levels deep); skips .git and node_modules.',
    input,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    sideEffect: 'read',
    groups: ['fs'],
    async execute(args): Promise<ToolResult> {
      const target = await deps.workspace.resolve(args.path ?? '.');
      const limit = args.limit ?? deps.limits.listDefaultLimit;
      const depth = args.depth ?? 1;
      let reader: Reader;
      if (target.kind === 'mount') {
        const info = await target.mount.fileSystem.stat(target.innerPath);
        if (info?.type !== 'directory')
          throw new ToolError(
            'INVALID_ARGUMENTS',
            `${target.display} is not a directory; use read for files`,
          );
        reader = mountReader(target);
      } else {
        const info = await lstat(target.path).catch(() => undefined);
        if (!info) throw new ToolError('INVALID_ARGUMENTS', `${target.display} does not exist`);
        if (!info.isDirectory())
          throw new ToolError(
            'INVALID_ARGUMENTS',
            `${target.display} is not a directory; use read for files`,
          );
        reader = diskReader(deps, target.path, target.display);
      }
      const listed: Listed[] = [];
      let truncated = false;
      const queue: Array<{ relative: string; level: number }> = [{ relative: '', level: 1 }];
      while (queue.length > 0 && !truncated) {
        const { relative, level } = queue.shift() as { relative: string; level: number };
        const entries = (await reader(relative)).sort(byTypeThenName);
        for (const entry of entries) {
          if (listed.length >= limit) {
            truncated = true;
            break;
          }
          const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
          listed.push(
            entry.size === undefined
              ? { path, type: entry.type }
              : { path, type: entry.type, size: entry.size },
          );
          const skipped = args.include_ignored !== true && SKIPPED_DIRECTORIES.includes(entry.name);
          if (entry.type === 'directory' && level < depth && !skipped)
            queue.push({ relative: path, level: level + 1 });
        }
      }
      const lines = listed.map((entry) => {
        const shown = showPath(entry.path);
        if (entry.type === 'directory') return `${shown}/`;
        if (entry.type === 'symlink') return `${shown} (symlink)`;
        if (entry.type === 'other') return `${shown} (special file)`;
        return `${shown}  ${formatBytes(entry.size ?? 0)}`;
      });
      const quoted = listed.filter((entry) => needsQuoting(entry.path)).length;
      const header = `${target.display}/ (${listed.length} entr${listed.length === 1 ? 'y' : 'ies'})`;
      const note = truncated
        ? `\n(truncated at ${limit} entries; pass a larger limit or list a subdirectory)`
        : '';
      const quotedLine = quoted > 0 ? `\n${quotedNote(quoted)}` : '';
      return ok(`${header}\n${lines.join('\n')}${note}${quotedLine}`, {
        path: target.display,
        entries: listed,
        truncated,
      });
    },
  });
}
