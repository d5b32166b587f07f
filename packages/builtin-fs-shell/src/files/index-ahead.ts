import type { FileHandle } from 'node:fs/promises';
import { type SerialCountEnd, countSerially, linesCounted } from './count-serially.js';
import type { CountThreads } from './count-threads.js';
import { type FileVersion, type LineIndexCache, sameVersion, versionOf } from './line-index.js';
import type { ScannerPool } from './newline-scanner.js';

/** Thrown inside a build's count when the file is no longer the version being indexed. */
class FileChanged extends Error {}

/** Options of {@link IndexAhead}. */
export interface IndexAheadOptions {
  readonly index: LineIndexCache;
  readonly scanners: ScannerPool;
  /** Files smaller than this are not indexed ahead (a scan of them is fast anyway). */
  readonly minBytes: number;
  /** Threads that count for the build when free (else it reads in async chunks on this thread). */
  readonly threads?: CountThreads | null;
}

/** How a build ended. */
export type BuildOutcome = 'complete' | 'aborted' | 'changed' | 'failed';

interface Build {
  readonly key: string;
  readonly version: FileVersion;
  readonly controller: AbortController;
  /** Newlines counted so far (from the start of the file). */
  newlines: number;
  finished: boolean;
  readonly waiters: Set<() => void>;
  done?: Promise<BuildOutcome>;
}

/**
 * Builds the line index of a large file in the background after a read that stopped before
 * its end, so the usual next read deeper into the file finds it warm. One build at a time: a
 * request for another file cancels the running one (its checkpoints stay; a later build
 * resumes from them). The counting threads do the build when they are free; otherwise it reads
 * with the scanner's one buffer in async chunks. Either way memory is bounded and the event
 * loop is never held longer than one chunk's count (well under a millisecond for 2 MiB). A
 * build stops when the file changes under it, and for good on {@link close}.
 */
export class IndexAhead {
  private current: Build | undefined;
  private closed = false;

  constructor(private readonly options: IndexAheadOptions) {}

  /**
   * Starts indexing a file unless it is small, already indexed, already being indexed, or
   * this builder is closed. `open` gives the build its own handle (closed when it ends).
   */
  request(key: string, version: FileVersion, open: () => Promise<FileHandle>): void {
    if (this.closed || version.size < this.options.minBytes) return;
    if (this.options.index.isComplete(key, version)) return;
    const running = this.current;
    if (running && running.key === key && sameVersion(running.version, version)) return;
    running?.controller.abort();
    const build: Build = {
      key,
      version,
      controller: new AbortController(),
      newlines: 0,
      finished: false,
      waiters: new Set(),
    };
    this.current = build;
    build.done = this.run(build, open).then(
      (outcome) => this.finish(build, outcome),
      () => this.finish(build, 'failed'),
    );
  }

  /** The running build's outcome, or undefined when none runs. */
  running(): Promise<BuildOutcome> | undefined {
    return this.current?.done;
  }

  /** Resolves when no build is running. */
  async idle(): Promise<void> {
    // Bounded: each pass waits for one build to end, and a new one starts only on request.
    for (let pass = 0; pass < 1000 && this.current; pass++) await this.current.done;
  }

  /**
   * When a build of this version of the file is running and has not yet counted past the
   * start of `line`, waits until it has (or stopped), so the caller reads from its checkpoints
   * instead of scanning the same bytes beside it. `signal` ends the wait, not the build.
   */
  async waitFor(key: string, version: FileVersion, line: number, signal?: AbortSignal): Promise<void> {
    const build = this.current;
    if (!build || build.key !== key || !sameVersion(build.version, version)) return;
    // Bounded: every pass waits for one more chunk of the build, which either advances or ends.
    while (!build.finished && build.newlines < line - 1) {
      if (signal?.aborted) throw signal.reason;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          build.waiters.delete(wake);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        build.waiters.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
    if (signal?.aborted) throw signal.reason;
  }

  /** Cancels the running build and refuses new ones; resolves when the build has stopped. */
  async close(): Promise<void> {
    this.closed = true;
    const build = this.current;
    build?.controller.abort();
    await build?.done;
  }

  private finish(build: Build, outcome: BuildOutcome): BuildOutcome {
    build.finished = true;
    wakeWaiters(build);
    if (this.current === build) this.current = undefined;
    return outcome;
  }

  private async run(build: Build, open: () => Promise<FileHandle>): Promise<BuildOutcome> {
    const { index, scanners } = this.options;
    const { key, version } = build;
    const signal = build.controller.signal;
    const handle = await open();
    const unchanged = async (): Promise<boolean> => sameVersion(versionOf(await handle.stat()), version);
    const scanner = scanners.acquire();
    try {
      if (!(await unchanged())) return 'changed';
      let from = index.furthest(key, version);
      build.newlines = from.newlines;
      const reach = await this.countOnThreads(build, handle, from);
      if (reach) {
        if (signal.aborted) return 'aborted';
        if (!(await unchanged())) return this.changed(build);
        from = reach;
      }
      let end: SerialCountEnd;
      try {
        end = await countSerially({
          handle,
          scanner,
          from,
          to: version.size,
          onCheckpoint: (offset, newlines) => this.reached(build, offset, newlines),
          // A chunk read while the file changed may mix two versions: check after every read.
          afterRead: async () => {
            if (signal.aborted) throw signal.reason;
            if (!(await unchanged())) throw new FileChanged();
          },
          signal,
        });
      } catch (error) {
        if (signal.aborted) return 'aborted';
        if (error instanceof FileChanged) return this.changed(build);
        throw error;
      }
      // The file ended before its size: it shrank under the build.
      if (end.offset < version.size) return this.changed(build);
      index.complete(key, version, end.newlines, await linesCounted(handle, scanner, end));
      return 'complete';
    } finally {
      scanners.release(scanner);
      await handle.close();
    }
  }

  /** Records a checkpoint of a build and wakes the reads waiting for it. */
  private reached(build: Build, offset: number, newlines: number): void {
    this.options.index.record(build.key, build.version, offset, newlines);
    build.newlines = newlines;
    wakeWaiters(build);
  }

  /** Drops what a build of a file that changed under it recorded. */
  private changed(build: Build): BuildOutcome {
    this.options.index.forget(build.key, build.version);
    return 'changed';
  }

  /** The build's count on the threads; undefined when they are busy, failed or were aborted. */
  private async countOnThreads(
    build: Build,
    handle: FileHandle,
    start: { offset: number; newlines: number },
  ): Promise<{ offset: number; newlines: number } | undefined> {
    const counting = this.options.threads?.tryCount({
      fd: handle.fd,
      start: start.offset,
      newlines: start.newlines,
      end: build.version.size,
      onCheckpoint: (offset, newlines) => this.reached(build, offset, newlines),
      signal: build.controller.signal,
    });
    // A failed or aborted count leaves the rest to the loop, which reports either the usual way.
    return counting?.catch(() => undefined);
  }
}

/** Wakes the reads waiting for a build to count further. */
function wakeWaiters(build: Build): void {
  for (const wake of [...build.waiters]) wake();
}
