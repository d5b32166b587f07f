import { lstat, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Tool, ToolError, type ToolResult, defineTool, ok } from '@toolplane/core';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import { GitignoreRules } from '../files/gitignore.js';
import type { ToolDeps } from './deps.js';
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
      const ignoreGlobs =
        args.include_ignored === true ? [] : SKIPPED_DIRECTORIES.map((name) => `**/${name}/**`);
      let paths = await glob(args.pattern, {
        cwd: base.path,
        dot: true,
        onlyFiles: true,
        followSymbolicLinks: false,
        expandDirectories: false,
        ignore: ignoreGlobs,
        signal: ctx.signal,
      });
      // tinyglobby starts its walk at the pattern's static part ("sub/etc" of "sub/etc/*") even
      // when that is a symbolic link: keep only matches whose directory is really inside.
      const realDirectories = new Map<string, Promise<boolean>>();
      const inside = (path: string): Promise<boolean> => {
        const directory = dirname(path);
        let known = realDirectories.get(directory);
        if (!known) {
          known = realpath(join(base.path, directory)).then(
            (real) => deps.workspace.contains(real),
            () => false,
          );
          realDirectories.set(directory, known);
        }
        return known;
      };
      const verdicts = await Promise.all(paths.map(inside));
      const outside = verdicts.filter((verdict) => !verdict).length;
      if (outside > 0) paths = paths.filter((_, i) => verdicts[i]);
      if (args.respect_gitignore === true) {
        const rules = new GitignoreRules(base.path);
        const kept: string[] = [];
        for (const path of paths) if (!(await rules.ignoresPath(path, false))) kept.push(path);
        paths = kept;
      }
      const sort = args.sort ?? 'mtime';
      let entries = paths.map((path) => ({ path, mtimeMs: 0 }));
      if (sort === 'mtime') {
        entries = await Promise.all(
          paths.map(async (path) => ({
            path,
            mtimeMs: (await lstat(join(base.path, path)).catch(() => undefined))?.mtimeMs ?? 0,
          })),
        );
        entries.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      } else {
        entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      }
      const prefix = base.display === '.' ? '' : `${base.display}/`;
      const shown = entries.slice(0, limit).map((entry) => `${prefix}${entry.path}`);
      const leftOut =
        outside > 0
          ? `\n\n(${outside} match${outside === 1 ? '' : 'es'} under symbolic links that lead outside the workspace were left out)`
          : '';
      if (shown.length === 0)
        return ok(`No files match ${args.pattern} in ${base.display}${leftOut}`, {
          paths: [],
          total: 0,
          truncated: false,
        });
      const note =
        entries.length > limit
          ? `\n\n(${entries.length} files match; showing ${limit}. Narrow the pattern or raise limit)`
          : '';
      return ok(shown.join('\n') + note + leftOut, {
        paths: shown,
        total: entries.length,
        truncated: entries.length > limit,
      });
    },
  });
}
