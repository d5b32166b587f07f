import { type Dirent, readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { GitignoreRules } from '../files/gitignore.js';
import { createFileFilter } from './file-filter.js';
import type { SearchPattern } from './pattern.js';
import { type FileHits, type LineHit, type SearchOutcome, byPath } from './results.js';
import type { SearchRequest } from './search-request.js';

// ripgrep reads files in 64 KiB buffers and stops at the first buffer holding a NUL byte.
const BINARY_BLOCK = 64 * 1024;
const CONCURRENCY = 16;

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

function searchable(data: Buffer): string {
  const nul = data.indexOf(0);
  if (nul === -1) return data.toString('utf8');
  const usable = Math.floor(nul / BINARY_BLOCK) * BINARY_BLOCK;
  if (usable === 0) return '';
  const cut = data.lastIndexOf(10, usable - 1);
  return cut === -1 ? '' : data.subarray(0, cut + 1).toString('utf8');
}

function hitsOf(path: string, text: string, request: SearchRequest): FileHits | undefined {
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

async function* walk(request: SearchRequest): AsyncGenerator<string> {
  const filter = createFileFilter(request.globs, request.typeGlobs);
  const rules = request.respectGitignore ? new GitignoreRules(request.root) : undefined;
  const stack: string[] = [''];
  while (stack.length > 0) {
    if (request.signal?.aborted) throw request.signal.reason;
    const directory = stack.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(join(request.root, directory), { withFileTypes: true });
    } catch {
      continue;
    }
    const subdirectories: string[] = [];
    for (const entry of entries) {
      const path = directory === '' ? entry.name : `${directory}/${entry.name}`;
      // Like ripgrep without --follow: symbolic links are not searched.
      if (entry.isDirectory()) {
        if (request.skipDirectories.includes(entry.name) || filter.excludesDirectory(path)) continue;
        if (rules && (await rules.ignoresEntry(path, true))) continue;
        subdirectories.push(path);
      } else if (entry.isFile()) {
        if (!filter.file(path)) continue;
        if (rules && (await rules.ignoresEntry(path, false))) continue;
        yield path;
      }
    }
    for (let i = subdirectories.length - 1; i >= 0; i--) stack.push(subdirectories[i] as string);
  }
}

/**
 * The pure-Node search engine: walks the tree with the same rules as the ripgrep command line
 * the tool builds (gitignore, skipped directories, globs, types, no symlinks, binary files
 * cut at the first 64 KiB block holding a NUL) and matches line by line.
 */
export async function searchWithNode(request: SearchRequest): Promise<SearchOutcome> {
  const files: FileHits[] = [];
  let total = 0;
  let incomplete = false;
  if (request.rootIsFile) {
    const hits = hitsOf(basename(request.root), searchable(readFileSync(request.root)), request);
    return { files: hits ? [hits] : [], incomplete: false, engine: 'node' };
  }
  const queue: Promise<void>[] = [];
  const searchOne = async (path: string): Promise<void> => {
    let data: Buffer;
    try {
      data = await readFile(join(request.root, path));
    } catch {
      return;
    }
    const hits = hitsOf(path, searchable(data), request);
    if (hits) {
      files.push(hits);
      total += hits.count;
    }
  };
  for await (const path of walk(request)) {
    if (total >= request.hardMatchCap) {
      incomplete = true;
      break;
    }
    const running = searchOne(path).finally(() => {
      queue.splice(queue.indexOf(running), 1);
    });
    queue.push(running);
    if (queue.length >= CONCURRENCY) await Promise.race(queue);
  }
  await Promise.all(queue);
  files.sort(byPath);
  return { files, incomplete, engine: 'node' };
}
