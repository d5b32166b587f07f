import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Tool, ToolError, type ToolResult, defineTool, ok } from '@toolplane/core';
import { z } from 'zod';
import { FILE_TYPES } from '../grep/file-types.js';
import { FIFO_TAKEOVER_NOTE, RipgrepWaitedOnFifo } from '../grep/fifo-wait.js';
import { findRipgrep } from '../grep/find-ripgrep.js';
import { formatHits } from '../grep/format.js';
import { rememberLineStarts } from '../grep/line-starts.js';
import { searchWithNode } from '../grep/node-search.js';
import { MAX_PATTERN_LENGTH, compilePattern } from '../grep/pattern.js';
import { searchWithRipgrep } from '../grep/ripgrep.js';
import type { SearchOutcome } from '../grep/results.js';
import type { SearchRequest } from '../grep/search-request.js';
import type { ToolDeps } from './deps.js';
import { quotedNote } from './shown-path.js';
import { SKIPPED_DIRECTORIES } from './list.js';

/** Most glob filters one search takes (each is compiled; a model needs a handful). */
const MAX_GLOBS = 100;

const input = z.object({
  pattern: z.string().describe('Regular expression (ripgrep syntax; no lookaround or backreferences)'),
  path: z
    .string()
    .optional()
    .describe('File or directory to search, relative to the workspace (default: all of it)'),
  glob: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe('Only files matching these globs ("*.ts", "src/**", "!*.min.js")'),
  type: z
    .string()
    .optional()
    .describe(`File type: ${Object.keys(FILE_TYPES).join(', ')}`),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('What to show (default files_with_matches)'),
  context: z
    .number()
    .int()
    .min(0)
    .max(20)
    .optional()
    .describe('Lines of context around each match (content mode)'),
  before: z.number().int().min(0).max(20).optional().describe('Lines before each match (content mode)'),
  after: z.number().int().min(0).max(20).optional().describe('Lines after each match (content mode)'),
  case_insensitive: z.boolean().optional(),
  head_limit: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe('Most files (or matching lines in content mode) to show'),
  respect_gitignore: z.boolean().optional().describe('Skip files ignored by .gitignore (default true)'),
});

/** Options that pick the engine in tests and benchmarks. */
export interface GrepRunOptions {
  readonly ripgrep?: string | false;
  readonly ripgrepMemoryBytes?: number | false;
}

/** The ripgrep binary a search uses, or undefined for the Node engine. */
function ripgrepOf(options: GrepRunOptions): string | undefined {
  return options.ripgrep === false ? undefined : (options.ripgrep ?? findRipgrep());
}

/**
 * Runs a search with ripgrep when available, else with the Node engine; also with the Node
 * engine when ripgrep was stopped waiting to open a FIFO (an ignore file it cannot be told to
 * pass over).
 */
export async function runSearch(request: SearchRequest, options: GrepRunOptions): Promise<SearchOutcome> {
  const binary = ripgrepOf(options);
  if (!binary) return searchWithNode(request);
  try {
    return await searchWithRipgrep(binary, request, options.ripgrepMemoryBytes);
  } catch (error) {
    if (!(error instanceof RipgrepWaitedOnFifo)) throw error;
    return { ...(await searchWithNode(request)), note: FIFO_TAKEOVER_NOTE };
  }
}

/** The `grep` tool. */
export function createGrepTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'grep',
    title: 'Search file contents',
    description:
      "Search file contents with a regular expression (glob/type filters, context lines; modes content, files_with_matches, count). Skips .gitignore'd files, .git and node_modules.",
    input,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    sideEffect: 'read',
    groups: ['fs'],
    async execute(args, ctx): Promise<ToolResult> {
      const target = await deps.workspace.resolveOnDisk(args.path ?? '.');
      const info = await stat(target.path).catch(() => undefined);
      if (!info) throw new ToolError('INVALID_ARGUMENTS', `${target.display} does not exist`);
      if (!info.isFile() && !info.isDirectory())
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `${target.display} is a special file (pipe, socket or device), not a file or directory to search`,
        );
      const rootIsFile = info.isFile();
      let typeGlobs: readonly string[] | undefined;
      if (args.type !== undefined) {
        // Own names only: "constructor" or "__proto__" are not file types.
        typeGlobs = Object.hasOwn(FILE_TYPES, args.type) ? FILE_TYPES[args.type] : undefined;
        if (!typeGlobs) {
          throw new ToolError(
            'INVALID_ARGUMENTS',
            `unknown type "${args.type}"; use one of ${Object.keys(FILE_TYPES).join(', ')} or a glob`,
          );
        }
      }
      const globs = args.glob === undefined ? [] : Array.isArray(args.glob) ? args.glob : [args.glob];
      if (globs.length > MAX_GLOBS)
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `${globs.length} glob filters; grep takes at most ${MAX_GLOBS}: join alternatives with braces ("*.{ts,tsx}") or search in steps`,
        );
      for (const glob of globs) {
        if (glob.length === 0 || glob.includes('\0'))
          throw new ToolError('INVALID_ARGUMENTS', 'glob must be a non-empty pattern');
        if (glob.length > MAX_PATTERN_LENGTH)
          throw new ToolError(
            'INVALID_ARGUMENTS',
            `a glob is ${glob.length} characters long, over the ${MAX_PATTERN_LENGTH} limit; shorten it`,
          );
      }
      const mode = args.output_mode ?? 'files_with_matches';
      const limit = args.head_limit ?? deps.limits.grepDefaultLimit;
      const request: SearchRequest = {
        root: target.path,
        rootIsFile,
        pattern: compilePattern(args.pattern, args.case_insensitive === true),
        mode,
        globs,
        ...(typeGlobs ? { typeGlobs } : {}),
        before: args.before ?? args.context ?? 0,
        after: args.after ?? args.context ?? 0,
        respectGitignore: args.respect_gitignore !== false,
        skipDirectories: SKIPPED_DIRECTORIES,
        signal: ctx.signal,
        hardMatchCap: Math.max(limit * 20, 20_000),
      };
      const startedAt = Date.now();
      const outcome = await runSearch(request, deps.grep);
      const prefixDirectory = rootIsFile ? dirname(target.path) : target.path;
      // A read near a match in a large file then starts counting there, not at the file's start.
      if (mode === 'content') {
        await rememberLineStarts({
          files: outcome.files,
          directory: prefixDirectory,
          index: deps.lineIndex,
          startedAt,
          signal: ctx.signal,
        });
      }
      const display = deps.workspace.display(prefixDirectory);
      const shown = formatHits(outcome.files, mode, limit, display === '.' ? '' : display);
      if (outcome.files.length === 0) {
        const note = outcome.note === undefined ? '' : ` (${outcome.note})`;
        return ok(`No matches for /${request.pattern.source}/ in ${target.display}${note}`, {
          files: 0,
          matches: 0,
          engine: outcome.engine,
        });
      }
      const unit = mode === 'content' ? 'matching lines' : 'files';
      const notes: string[] = [];
      if (shown.truncated)
        notes.push(`showing the first ${limit} ${unit}; narrow the search or raise head_limit`);
      if (outcome.incomplete) notes.push('the search stopped early because it found too much; narrow it');
      if (outcome.note !== undefined) notes.push(outcome.note);
      const files = `${shown.files} file${shown.files === 1 ? '' : 's'}`;
      const summary =
        mode === 'files_with_matches'
          ? `${files} match`
          : `${shown.matches} matching line${shown.matches === 1 ? '' : 's'} in ${files}`;
      const quotedLine = shown.quoted > 0 ? `\n${quotedNote(shown.quoted)}` : '';
      const text = `${shown.text}\n\n(${[summary, ...notes].join('; ')})${quotedLine}`;
      return ok(text, {
        files: shown.files,
        ...(mode === 'files_with_matches' ? {} : { matches: shown.matches }),
        truncated: shown.truncated || outcome.incomplete,
        engine: outcome.engine,
      });
    },
  });
}
