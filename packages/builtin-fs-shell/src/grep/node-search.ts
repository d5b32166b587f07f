import { type Dirent, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Ignore } from 'ignore';
import { GitignoreRules } from '../files/gitignore.js';
import { createFileFilter } from './file-filter.js';
import type { SearchPattern } from './pattern.js';
import { type FileHits, type LineHit, type SearchOutcome, byPath } from './results.js';
import type { SearchRequest } from './search-request.js';

// ripgrep reads files in 64 KiB buffers and stops at the first buffer holding a NUL byte.
const BINARY_BLOCK = 64 * 1024;
// Work runs in synchronous slices (much faster than one promise per file) and yields to the
// event loop between them, so timers and aborts still run during a long search.
const SLICE_MS = 10;

/** Lines (1-based numbers) that match, found with one scan of the whole text. */
function matchingLines(text: string, pattern: SearchPattern, firstOnly: boolean): number[] {
  const scanner = pattern.scanner;
  scanner.lastIndex = 0;
  const found: number[] = [];
  let line = 1;
  let lineStart = 0;
  for (;;) {
    const match = scanner.exec(text);
    if (!match) break;
    // Advance the line counter to the line holding the match start.
    let next = text.indexOf('\n', lineStart);
    while (next !== -1 && next < match.index) {
      line++;
      lineStart = next + 1;
      next = text.indexOf('\n', lineStart);
    }
    const lineEnd = next === -1 ? text.length : next;
    if (pattern.line.test(text.slice(lineStart, lineEnd))) {
      found.push(line);
      if (firstOnly) break;
    }
    if (next === -1) break;
    line++;
    lineStart = next + 1;
    scanner.lastIndex = lineStart;
  }
  return found;
}

/** The text a search looks at, and whether a NUL byte cut it (a binary file). */
function searchable(data: Buffer): { readonly text: string; readonly binary: boolean } {
  const nul = data.indexOf(0);
  if (nul === -1) return { text: data.toString('utf8'), binary: false };
  const usable = Math.floor(nul / BINARY_BLOCK) * BINARY_BLOCK;
  if (usable === 0) return { text: '', binary: true };
  const cut = data.lastIndexOf(10, usable - 1);
  return { text: cut === -1 ? '' : data.subarray(0, cut + 1).toString('utf8'), binary: true };
}

function hitsOf(
  path: string,
  { text, binary }: ReturnType<typeof searchable>,
  request: SearchRequest,
): FileHits | undefined {
  // ripgrep's count mode leaves out a binary file, even one with matches before its NUL.
  if (binary && request.mode === 'count') return undefined;
  const matches = matchingLines(text, request.pattern, request.mode === 'files_with_matches');
  if (matches.length === 0) return undefined;
  if (request.mode !== 'content') return { path, lines: [], count: matches.length };
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const wanted = new Map<number, boolean>();
  for (const number of matches) {
    for (
      let n = Math.max(1, number - request.before);
      n <= Math.min(lines.length, number + request.after);
      n++
    ) {
      if (!wanted.has(n)) wanted.set(n, false);
    }
    wanted.set(number, true);
  }
  const hits: LineHit[] = [...wanted.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([line, match]) => ({ line, match, text: lines[line - 1] ?? '' }));
  return { path, lines: hits, count: matches.length };
}

/** Ignore rules in force in a directory: each with the directory it came from. */
type ActiveRules = ReadonlyArray<{ readonly base: string; readonly rules: Ignore }>;

function ignoredBy(active: ActiveRules, path: string, isDirectory: boolean): boolean {
  let verdict = false;
  for (const { base, rules } of active) {
    const rest = (base === '' ? path : path.slice(base.length + 1)) + (isDirectory ? '/' : '');
    const result = rules.test(rest);
    if (result.ignored) verdict = true;
    else if (result.unignored) verdict = false;
  }
  return verdict;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The pure-Node search engine: walks the tree with the same rules as the ripgrep command line
 * the tool builds (gitignore and rgignore, skipped directories, globs, types, no symlinks,
 * binary files cut at the first 64 KiB block holding a NUL) and matches line by line.
 */
export async function searchWithNode(request: SearchRequest): Promise<SearchOutcome> {
  if (request.rootIsFile) {
    const hits = hitsOf(basename(request.root), searchable(readFileSync(request.root)), request);
    return { files: hits ? [hits] : [], incomplete: false, engine: 'node' };
  }
  const filter = createFileFilter(request.globs, request.typeGlobs);
  const literal =
    request.pattern.literal === undefined ? undefined : Buffer.from(request.pattern.literal, 'utf8');
  const loader = request.respectGitignore ? new GitignoreRules(request.root) : undefined;
  const stack: Array<{ directory: string; active: ActiveRules }> = [{ directory: '', active: [] }];
  const files: FileHits[] = [];
  let total = 0;
  let incomplete = false;
  let sliceStart = performance.now();
  while (stack.length > 0) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    if (request.signal?.aborted) throw request.signal.reason;
    if (total >= request.hardMatchCap) {
      incomplete = true;
      break;
    }
    const { directory, active: inherited } = stack.pop() as { directory: string; active: ActiveRules };
    let entries: Dirent[];
    try {
      entries = readdirSync(join(request.root, directory), { withFileTypes: true });
    } catch {
      continue;
    }
    let active = inherited;
    if (loader && entries.some((entry) => entry.name === '.gitignore' || entry.name === '.rgignore')) {
      active = [...inherited, ...loader.rulesOfSync(directory).map((rules) => ({ base: directory, rules }))];
    }
    const subdirectories: string[] = [];
    for (const entry of entries) {
      const path = directory === '' ? entry.name : `${directory}/${entry.name}`;
      // Like ripgrep without --follow: symbolic links are not searched.
      if (entry.isDirectory()) {
        if (request.skipDirectories.includes(entry.name) || filter.excludesDirectory(path)) continue;
        if (active.length > 0 && ignoredBy(active, path, true)) continue;
        subdirectories.push(path);
      } else if (entry.isFile()) {
        if (!filter.file(path)) continue;
        if (active.length > 0 && ignoredBy(active, path, false)) continue;
        let data: Buffer;
        try {
          data = readFileSync(join(request.root, path));
        } catch {
          continue;
        }
        if (literal !== undefined && data.indexOf(literal) === -1) continue;
        const hits = hitsOf(path, searchable(data), request);
        if (hits) {
          files.push(hits);
          total += hits.count;
        }
      }
    }
    for (let i = subdirectories.length - 1; i >= 0; i--) {
      stack.push({ directory: subdirectories[i] as string, active });
    }
  }
  files.sort(byPath);
  return { files, incomplete, engine: 'node' };
}
