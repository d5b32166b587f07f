import { type Dirent, closeSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Ignore } from 'ignore';
import { GitignoreRules } from '../files/gitignore.js';
import { openWalkedDirectory, throughDescriptor } from '../workspace/walk-descriptor.js';
import { type FileFilter, createFileFilter } from './file-filter.js';
import { type FileScan, type FileSearchState, openFileScan } from './file-search.js';
import { type FileHits, byPath } from './results.js';
import type { SearchRequest } from './search-request.js';

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

/** A directory still to walk. */
interface Pending {
  readonly directory: string;
  readonly active: ActiveRules;
}

/** The directory being walked, open as a descriptor, and how far its entries are done. */
interface OpenDirectory {
  readonly from: Pending;
  readonly directory: string;
  readonly absolute: string;
  readonly fd: number;
  readonly entries: readonly Dirent[];
  readonly active: ActiveRules;
  /** Entry in hand: it is done only once its result is recorded. */
  next: number;
  /** A set, so an entry handled twice (after a cut) is listed once. */
  readonly subdirectories: Set<string>;
}

/**
 * The pure-Node search as a walk that works in slices: {@link work} runs synchronously until a
 * given time and can be stopped anywhere (a watchdog cuts a slice whose regular expression
 * backtracks); after {@link recover} the next slice searches the file in hand again from its
 * start. Results are recorded by path, so a file searched twice counts once.
 *
 * Like the ripgrep command line the tool builds: gitignore and rgignore, skipped directories,
 * globs, types, no symlinks followed, binary files cut at the first 64 KiB block holding a NUL.
 */
export class NodeWalk {
  private readonly stack: Pending[] = [];
  private open: OpenDirectory | undefined;
  private scan: { readonly path: string; readonly scan: FileScan } | undefined;
  private rootFile: boolean;
  private readonly found = new Map<string, FileHits>();
  private total = 0;
  private incomplete = false;
  private readonly filter: FileFilter;
  private readonly loader: GitignoreRules | undefined;

  constructor(
    private readonly request: SearchRequest,
    private readonly state: FileSearchState,
    private readonly literal: Buffer | undefined,
  ) {
    this.rootFile = request.rootIsFile;
    if (!request.rootIsFile) this.stack.push({ directory: '', active: [] });
    this.filter = createFileFilter(request.globs, request.typeGlobs);
    this.loader = request.respectGitignore ? new GitignoreRules(request.root) : undefined;
  }

  /** Works until `until` (a `performance.now()` time) or the end; true when the walk is over. */
  work(until: number): boolean {
    for (;;) {
      if (this.scan !== undefined && !this.finishScan(until)) return false;
      if (this.total >= this.request.hardMatchCap) {
        this.incomplete = true;
        return true;
      }
      if (performance.now() > until) return false;
      if (this.rootFile) {
        this.startScan(basename(this.request.root), this.request.root);
        if (this.scan === undefined) this.rootFile = false; // unreadable: nothing to search
      } else if (this.open !== undefined) {
        this.nextEntry();
      } else {
        const pending = this.stack.at(-1);
        if (pending === undefined) return true;
        this.enter(pending);
      }
    }
  }

  /**
   * After a cut slice: closes the file in hand (the next slice searches it again from its
   * start) and drops a directory both entered and still pending. A descriptor opened in the
   * very instant of the cut, before it was noted, stays open.
   */
  recover(): void {
    this.scan?.scan.close();
    this.scan = undefined;
    if (this.open !== undefined && this.stack.at(-1) === this.open.from) this.stack.pop();
  }

  /** Closes what the walk holds open (after the end, an error or an abort). */
  close(): void {
    this.scan?.scan.close();
    this.scan = undefined;
    if (this.open !== undefined) closeSync(this.open.fd);
    this.open = undefined;
  }

  /** The files that matched, in byte order of their path. */
  outcome(): { readonly files: FileHits[]; readonly incomplete: boolean } {
    return { files: [...this.found.values()].sort(byPath), incomplete: this.incomplete };
  }

  private enter(pending: Pending): void {
    const { directory } = pending;
    // Each directory is opened without following a link and checked to be where the walk
    // expects it; its entries and files are then read through that descriptor, so a directory
    // swapped for a symbolic link to the outside mid-walk shows nothing from there.
    const absolute = join(this.request.root, directory);
    const fd = openWalkedDirectory(absolute);
    if (fd === undefined) {
      this.stack.pop();
      return;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(throughDescriptor(fd, absolute, ''), { withFileTypes: true });
    } catch {
      closeSync(fd);
      this.stack.pop();
      return;
    }
    let active = pending.active;
    if (this.loader && entries.some((entry) => entry.name === '.gitignore' || entry.name === '.rgignore')) {
      active = [
        ...active,
        ...this.loader
          .rulesOfSync(directory, throughDescriptor(fd, absolute, ''))
          .map((rules) => ({ base: directory, rules })),
      ];
    }
    // Open first, then leave the stack: a cut between the two enters the directory once more
    // (harmless), never zero times.
    this.open = {
      from: pending,
      directory,
      absolute,
      fd,
      entries,
      active,
      next: 0,
      subdirectories: new Set(),
    };
    this.stack.pop();
  }

  private nextEntry(): void {
    const open = this.open as OpenDirectory;
    const entry = open.entries[open.next];
    if (entry === undefined) {
      // Pushed before the directory is let go: a cut in between pushes them again (harmless).
      for (const directory of [...open.subdirectories].reverse()) {
        this.stack.push({ directory, active: open.active });
      }
      this.open = undefined;
      closeSync(open.fd);
      return;
    }
    const { directory, active } = open;
    const path = directory === '' ? entry.name : `${directory}/${entry.name}`;
    // Like ripgrep without --follow: symbolic links are not searched.
    if (entry.isDirectory()) {
      const skipped =
        this.request.skipDirectories.includes(entry.name) ||
        this.filter.excludesDirectory(path) ||
        (active.length > 0 && ignoredBy(active, path, true));
      if (!skipped) open.subdirectories.add(path);
    } else if (
      entry.isFile() &&
      this.filter.file(path) &&
      !(active.length > 0 && ignoredBy(active, path, false))
    ) {
      this.startScan(path, throughDescriptor(open.fd, open.absolute, entry.name));
      if (this.scan !== undefined) return; // the entry is done when its scan is
    }
    open.next++;
  }

  private startScan(path: string, absolute: string): void {
    const scan = openFileScan(path, absolute, this.request, this.state, this.literal);
    if (scan !== undefined) this.scan = { path, scan };
  }

  /** Steps the file in hand; true when it is done (and recorded). */
  private finishScan(until: number): boolean {
    const { path, scan } = this.scan as { path: string; scan: FileScan };
    // A file that fits one read is done in one step; a larger one checks the time per chunk.
    while (!scan.step()) if (performance.now() > until) return false;
    scan.close();
    const hits = scan.result();
    const before = this.found.get(path);
    if (before !== undefined) this.total -= before.count;
    if (hits === undefined) this.found.delete(path);
    else {
      this.found.set(path, hits);
      this.total += hits.count;
    }
    this.rootFile = false;
    this.scan = undefined;
    if (this.open !== undefined) this.open.next++;
    return true;
  }
}
