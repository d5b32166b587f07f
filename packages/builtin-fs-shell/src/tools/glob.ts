import { type Dirent, readdir } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { type Tool, ToolError, type ToolResult, defineTool, ok } from '@toolplane/core';
import type { FileSystemAdapter } from 'tinyglobby';
import { z } from 'zod';
import { GitignoreRules } from '../files/gitignore.js';
import { confirmInside } from './glob-confirm.js';
import type { ToolDeps } from './deps.js';
import { needsQuoting, quotedNote, showPath } from './shown-path.js';
import { SKIPPED_DIRECTORIES } from './list.js';

const input = z.object({
  pattern: z.string().min(1).describe('Glob such as "**/*.ts" or "src/*.{js,jsx}"'),
  path: z
    .string()
    .optional()
    .describe('Directory to search from, relative to the workspace (default: the workspace)'),
  sort: z
    .enum(['mtime', 'name'])
    .optional()
    .describe('mtime: most recently modified first (default); name: by path'),
  limit: z.number().int().min(1).max(10_000).optional().describe('Most paths to return (default 200)'),
  respect_gitignore: z.boolean().optional().describe('Leave out files ignored by .gitignore (default false)'),
  include_ignored: z.boolean().optional().describe('Also look inside .git and node_modules (default false)'),
});

/** Where the nearest existing directory at or above `relative` (inside `base`) really is. */
async function realStart(base: string, relative: string): Promise<string | undefined> {
  let candidate = relative;
  for (let depth = 0; depth < 256 && candidate !== '.' && candidate !== ''; depth++) {
    const real = await realpath(join(base, candidate)).catch(() => undefined);
    if (real !== undefined) return real;
    candidate = posix.dirname(candidate);
  }
  return undefined;
}

/**
 * tinyglobby's walk passes over a directory it cannot read; this `readdir` counts those whose
 * path is longer than the system allows (ENAMETOOLONG), so the result can say so.
 */
function countTooDeep(): { readonly fs: FileSystemAdapter; readonly count: () => number } {
  let tooDeep = 0;
  const counting = (
    path: string,
    options: { withFileTypes: true },
    callback: (error: NodeJS.ErrnoException | null, entries?: Dirent[]) => void,
  ): void => {
    readdir(path, options, (error, entries) => {
      if (error?.code === 'ENAMETOOLONG') tooDeep++;
      callback(error, entries);
    });
  };
  return { fs: { readdir: counting as unknown as FileSystemAdapter['readdir'] }, count: () => tooDeep };
}

/** The `glob` tool. */
export function createGlobTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'glob',
    title: 'Find files',
    description:
      'Find files by glob pattern ("**/*.ts"), newest first or by name; skips .git and node_modules.',
    input,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    sideEffect: 'read',
    groups: ['fs'],
    async execute(args, ctx): Promise<ToolResult> {
      if (
        args.pattern.startsWith('/') ||
        args.pattern.split('/').includes('..') ||
        args.pattern.includes('\0')
      ) {
        throw new ToolError(
          'INVALID_ARGUMENTS',
          'pattern must be relative and must not contain ".."; pass path to search another directory',
        );
      }
      const base = await deps.workspace.resolveOnDisk(args.path ?? '.');
      const info = await lstat(base.path).catch(() => undefined);
      if (!info?.isDirectory())
        throw new ToolError('INVALID_ARGUMENTS', `${base.display} is not a directory`);
      const limit = args.limit ?? deps.limits.globDefaultLimit;
      // the walkers (fdir, tinyglobby) load with the first glob call, not with the provider
      const { fixedDirectory, linearWalk, walkGuarded, walkLinear } = await import('./glob-walk.js');
      const tooDeep = countTooDeep();
      const linear = linearWalk(args.pattern);
      const skip = args.include_ignored === true ? [] : SKIPPED_DIRECTORIES;
      const walkOptions = { fs: tooDeep.fs, skip, signal: ctx.signal };
      let paths =
        linear !== undefined
          ? await walkLinear(base.path, linear, walkOptions)
          : await walkGuarded(base.path, args.pattern, walkOptions);
      // The walk follows no link, but the pattern's fixed part ("sub/link" of "sub/link/*") may
      // be one: nothing from where it leads is listed, and the result says so.
      let outside = false;
      const fixed = fixedDirectory(args.pattern);
      if (fixed !== '') {
        const real = await realStart(base.path, fixed);
        if (real !== undefined && !deps.workspace.contains(real)) {
          outside = true;
          paths = [];
        }
      }
      if (args.respect_gitignore === true) {
        const rules = new GitignoreRules(base.path);
        const kept: string[] = [];
        for (const path of paths) if (!(await rules.ignoresPath(path, false))) kept.push(path);
        paths = kept;
      }
      const sort = args.sort ?? 'mtime';
      const entries = await confirmInside(
        base.path,
        paths,
        (real) => deps.workspace.contains(real),
        ctx.signal,
      );
      if (sort === 'mtime') {
        entries.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      } else {
        entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      }
      const prefix = base.display === '.' ? '' : `${base.display}/`;
      const shown = entries.slice(0, limit).map((entry) => `${prefix}${entry.path}`);
      const quoted = shown.filter(needsQuoting).length;
      const quotedLine = quoted > 0 ? `\n\n${quotedNote(quoted)}` : '';
      const leftOut = outside
        ? `\n\n(the pattern goes through ${showPath(fixed)}, a symbolic link that leads outside the workspace: nothing was listed from there)`
        : '';
      const deep = tooDeep.count();
      const deepLine =
        deep > 0
          ? `\n\n(${deep} director${deep === 1 ? 'y lies' : 'ies lie'} deeper than the system's path limit (4096 bytes) and could not be searched; reach ${deep === 1 ? 'it' : 'them'} with bash, one cd at a time)`
          : '';
      if (shown.length === 0)
        return ok(`No files match ${args.pattern} in ${base.display}${leftOut}${deepLine}`, {
          paths: [],
          total: 0,
          truncated: false,
        });
      const note =
        entries.length > limit
          ? `\n\n(${entries.length} files match; showing ${limit}. Narrow the pattern or raise limit)`
          : '';
      return ok(shown.map(showPath).join('\n') + note + leftOut + deepLine + quotedLine, {
        paths: shown,
        total: entries.length,
        truncated: entries.length > limit,
      });
    },
  });
}
