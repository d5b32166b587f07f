import { join, posix } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ToolError } from '@toolplane/core';
import { fdir } from 'fdir';
import picomatch from 'picomatch';
import { type FileSystemAdapter, isDynamicPattern } from 'tinyglobby';
import { linearGlob } from '../grep/linear-glob.js';
import { SliceCut, runBounded } from '../grep/slice-guard.js';

/** How `glob` walks and matches a pattern in time linear in each path. */
export interface LinearWalk {
  /** The pattern's fixed leading directories ('' for none): where the walk starts. */
  readonly fixed: string;
  /** Levels below `fixed` worth walking (undefined: all, the pattern has `**`). */
  readonly maxDepth?: number;
  readonly matches: (path: string) => boolean;
}

/**
 * The leading directories of a pattern that hold no glob syntax ("src/lib" of "src/lib/*.ts"),
 * found the way tinyglobby finds the directory its walk starts at.
 */
export function fixedDirectory(pattern: string): string {
  const segments = posix.normalize(pattern).split('/');
  const fixed: string[] = [];
  // The last segment names files, never the start of the walk.
  for (const segment of segments.slice(0, -1)) {
    if (isDynamicPattern(segment)) break;
    fixed.push(segment);
  }
  return fixed.filter((segment) => segment !== '' && segment !== '.').join('/');
}

/** The pattern as tinyglobby reads it: posix-normalized, without leading `./`. */
const normalize = (pattern: string): string => posix.normalize(pattern).replace(/^(\.\/)+/, '');

/** Where a pattern's walk starts and how deep it goes (undefined: all the way, it has `**`). */
function walkOf(normalized: string): { readonly fixed: string; readonly maxDepth?: number } {
  const fixed = fixedDirectory(normalized);
  // Without "**" no path is deeper than the pattern's parts (a brace may hold a "/": counted).
  const parts = normalized.split('/').length - (fixed === '' ? 0 : fixed.split('/').length);
  return { fixed, ...(normalized.includes('**') ? {} : { maxDepth: Math.max(0, parts - 1) }) };
}

/**
 * The linear way to run `pattern`, or undefined for what RE2 cannot express (`!(...)`): those
 * go to {@link walkGuarded}. picomatch backtracks (`*a*a*a*b` against a long name took a
 * minute), and tinyglobby's `**` passes over names holding a line break; so fdir (the crawler
 * under tinyglobby) walks the fixed directory and RE2 ({@link linearGlob}) matches.
 */
export function linearWalk(pattern: string): LinearWalk | undefined {
  const normalized = normalize(pattern);
  const matches = linearGlob(normalized, { basename: false });
  if (matches === undefined) return undefined;
  return { ...walkOf(normalized), matches };
}

/** How long one slice of picomatch matching may hold the thread before the search fails. */
const PICOMATCH_BUDGET_MS = 1000;

/**
 * A pattern only picomatch reads (a `!(...)` negation): fdir walks, and picomatch matches in
 * slices of about 10 ms, each under V8's watchdog; a slice still running after 1 s means the
 * pattern backtracks, and the call fails with INVALID_ARGUMENTS instead of holding the process.
 */
export async function walkGuarded(
  cwd: string,
  pattern: string,
  options: {
    readonly fs: FileSystemAdapter;
    readonly skip: readonly string[];
    readonly signal?: AbortSignal;
  },
): Promise<string[]> {
  const normalized = normalize(pattern);
  const match = picomatch(normalized, { dot: true, posix: true });
  const all = await walkLinear(cwd, { ...walkOf(normalized), matches: () => true }, options);
  const kept: string[] = [];
  let at = 0;
  const slice = (): void => {
    const until = performance.now() + 10;
    for (; at < all.length && performance.now() < until; at++) {
      const path = all[at] as string;
      if (match(path)) kept.push(path);
    }
  };
  while (at < all.length) {
    if (options.signal?.aborted) throw options.signal.reason;
    try {
      runBounded(slice, PICOMATCH_BUDGET_MS);
    } catch (error) {
      if (!(error instanceof SliceCut)) throw error;
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `glob pattern ${JSON.stringify(pattern)} backtracks: matching it held the process past ${PICOMATCH_BUDGET_MS} ms on one name; write it without !(...) (every other glob form matches in linear time)`,
      );
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return kept;
}

/** Files under `cwd/fixed` (no link followed, `skip` directories left out) that match, relative to `cwd`. */
export function walkLinear(
  cwd: string,
  walk: LinearWalk,
  options: {
    readonly fs: FileSystemAdapter;
    readonly skip: readonly string[];
    readonly signal?: AbortSignal;
  },
): Promise<string[]> {
  const prefix = walk.fixed === '' ? '' : `${walk.fixed}/`;
  const crawler = new fdir({
    fs: options.fs as never,
    pathSeparator: '/',
    relativePaths: true,
    excludeSymlinks: true,
    resolveSymlinks: false,
    suppressErrors: true,
    ...(walk.maxDepth === undefined ? {} : { maxDepth: walk.maxDepth }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    exclude: (name) => options.skip.includes(name),
    filters: [(path) => walk.matches(prefix + path)],
  });
  return crawler
    .crawl(join(cwd, walk.fixed))
    .withPromise()
    .then((paths) => (paths as string[]).map((path) => prefix + path));
}
