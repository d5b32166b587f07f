import { join, posix } from 'node:path';
import { fdir } from 'fdir';
import type { FileSystemAdapter } from 'tinyglobby';
import { linearGlob } from '../grep/linear-glob.js';

/** How `glob` walks and matches a pattern in time linear in each path. */
export interface LinearWalk {
  /** The pattern's fixed leading directories ('' for none): where the walk starts. */
  readonly fixed: string;
  /** Levels below `fixed` worth walking (undefined: all, the pattern has `**`). */
  readonly maxDepth?: number;
  readonly matches: (path: string) => boolean;
}

/**
 * The linear way to run `pattern`, or undefined for what RE2 cannot express (`!(...)`): those
 * keep tinyglobby's matcher. tinyglobby's matcher, picomatch, backtracks (`*a*a*a*b` against a
 * long name took a minute), and its `**` passes over names holding a line break; so fdir (the
 * crawler under tinyglobby) walks the fixed directory and RE2 ({@link linearGlob}) matches.
 */
export function linearWalk(
  pattern: string,
  fixedDirectory: (pattern: string) => string,
): LinearWalk | undefined {
  const normalized = posix.normalize(pattern).replace(/^(\.\/)+/, '');
  const matches = linearGlob(normalized, { basename: false });
  if (matches === undefined) return undefined;
  const fixed = fixedDirectory(normalized);
  // Without "**" no path is deeper than the pattern's parts (a brace may hold a "/": counted).
  const parts = normalized.split('/').length - (fixed === '' ? 0 : fixed.split('/').length);
  return { fixed, ...(normalized.includes('**') ? {} : { maxDepth: Math.max(0, parts - 1) }), matches };
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
