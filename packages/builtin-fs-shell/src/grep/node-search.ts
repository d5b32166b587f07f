import { type Dirent, closeSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Ignore } from 'ignore';
import { GitignoreRules } from '../files/gitignore.js';
import { openWalkedDirectory, throughDescriptor } from '../workspace/walk-descriptor.js';
import { createFileFilter } from './file-filter.js';
import { createFileSearchState, searchFile } from './file-search.js';
import { type FileHits, type SearchOutcome, byPath } from './results.js';
import type { SearchRequest } from './search-request.js';

// Work runs in synchronous slices (much faster than one promise per file) and yields to the
// event loop between them, so timers and aborts still run during a long search.
const SLICE_MS = 10;

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
  let sliceStart = performance.now();
  const state = createFileSearchState(async () => {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    if (request.signal?.aborted) throw request.signal.reason;
  });
  const literal =
    request.pattern.literal === undefined ? undefined : Buffer.from(request.pattern.literal, 'utf8');
  if (request.rootIsFile) {
    const hits = await searchFile(basename(request.root), request.root, request, state, literal);
    return { files: hits ? [hits] : [], incomplete: false, engine: 'node' };
  }
  const filter = createFileFilter(request.globs, request.typeGlobs);
  const loader = request.respectGitignore ? new GitignoreRules(request.root) : undefined;
  const stack: Array<{ directory: string; active: ActiveRules }> = [{ directory: '', active: [] }];
  const files: FileHits[] = [];
  let total = 0;
  let incomplete = false;
  while (stack.length > 0) {
    await state.pace();
    if (total >= request.hardMatchCap) {
      incomplete = true;
      break;
    }
    const { directory, active: inherited } = stack.pop() as { directory: string; active: ActiveRules };
    // Each directory is opened without following a link and checked to be where the walk
    // expects it; its entries and files are then read through that descriptor, so a directory
    // swapped for a symbolic link to the outside mid-walk shows nothing from there.
    const absolute = join(request.root, directory);
    const fd = openWalkedDirectory(absolute);
    if (fd === undefined) continue;
    const subdirectories: string[] = [];
    try {
      let entries: Dirent[];
      try {
        entries = readdirSync(throughDescriptor(fd, absolute, ''), { withFileTypes: true });
      } catch {
        continue;
      }
      let active = inherited;
      if (loader && entries.some((entry) => entry.name === '.gitignore' || entry.name === '.rgignore')) {
        active = [
          ...inherited,
          ...loader.rulesOfSync(directory).map((rules) => ({ base: directory, rules })),
        ];
      }
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
          const searched = searchFile(
            path,
            throughDescriptor(fd, absolute, entry.name),
            request,
            state,
            literal,
          );
          const hits = searched instanceof Promise ? await searched : searched;
          if (hits) {
            files.push(hits);
            total += hits.count;
          }
        }
      }
      for (let i = subdirectories.length - 1; i >= 0; i--) {
        stack.push({ directory: subdirectories[i] as string, active });
      }
    } finally {
      closeSync(fd);
    }
  }
  files.sort(byPath);
  return { files, incomplete, engine: 'node' };
}
