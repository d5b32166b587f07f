import type { FileHandle } from 'node:fs/promises';
import { findLineBackward } from './count-backward.js';
import type { CountReach, CountThreads } from './count-threads.js';
import { countSerially, linesCounted } from './count-serially.js';
import type { Checkpoint, FileVersion, LineIndexCache } from './line-index.js';
import type { NewlineScanner } from './newline-scanner.js';

// A scan starts with a small read (the line is often close) and doubles up to the scanner's buffer.
const FIRST_CHUNK = 64 * 1024;

/**
 * Bytes a scan counts on its own thread before it hands the rest to the counting threads (most
 * lines asked for are near the start or near a checkpoint), and the least it hands over.
 */
export const SERIAL_LEAD_BYTES = 2 * 1024 * 1024;

/**
 * Bytes a scan counts back from an anchor after the line (where a search found a line just
 * past it) before it counts forward instead; tried only when forward means more than
 * {@link SERIAL_LEAD_BYTES}.
 */
export const BACKWARD_MAX_BYTES = 4 * 1024 * 1024;

/** Where to find a line. */
export interface LineSearch {
  readonly handle: FileHandle;
  readonly key: string;
  readonly version: FileVersion;
  /** The line, 1-based. */
  readonly line: number;
  readonly index: LineIndexCache;
  readonly scanner: NewlineScanner;
  /** Threads to count far-away lines with (none: the scan stays on this thread). */
  readonly threads?: CountThreads | null;
  readonly signal?: AbortSignal;
}

/** The byte offset where a line starts, or the line count when the file ends before it. */
export type LineStart =
  | { readonly found: true; readonly offset: number }
  | { readonly found: false; readonly totalLines: number };

/**
 * Finds where line `line` starts without looking at the lines before it. When the index has an
 * anchor a little after the line and none close before it, counts back from the anchor (see
 * {@link findLineBackward}). Otherwise counts "\n" bytes
 * from the index's nearest checkpoint on this thread (see {@link countSerially}), offering the
 * index a checkpoint every segment. Past {@link SERIAL_LEAD_BYTES}, or as soon as the lines
 * counted so far put the wanted one that far ahead, the counting threads, when given and free,
 * count the rest up to the segment that holds the line. Memory stays the
 * scanner's buffer (and one small one per thread).
 */
export async function findLineStart(search: LineSearch): Promise<LineStart> {
  const { handle, key, version, index, scanner, threads, signal } = search;
  const start = index.nearest(key, version, search.line);
  // "\n" bytes to pass: line N starts after the (N-1)-th one.
  if (search.line - 1 <= start.newlines) return { found: true, offset: start.offset };
  const after = index.following(key, version, search.line);
  if (after && after.offset - start.offset > SERIAL_LEAD_BYTES) {
    const offset = await findLineBackward({
      handle,
      scanner,
      from: after,
      line: search.line,
      maxBytes: BACKWARD_MAX_BYTES,
      ...(signal ? { signal } : {}),
    });
    if (offset !== undefined) {
      index.record(key, version, offset, search.line - 1);
      return { found: true, offset };
    }
  }
  let handedOver = !threads;
  let warmed = false;
  const end = await countSerially({
    handle,
    scanner,
    from: start,
    to: version.size,
    until: search.line - 1,
    firstChunk: FIRST_CHUNK,
    onCheckpoint: (offset, newlines) => index.record(key, version, offset, newlines),
    beforeRead: (reach) => {
      if (handedOver || !threads) return undefined;
      if (reach.offset - start.offset < SERIAL_LEAD_BYTES && !farAhead(start, reach, search.line))
        return undefined;
      if (!threads.ready) {
        // Threads still starting: keep counting here meanwhile, and hand over once they are up.
        if (!warmed) threads.warm();
        warmed = true;
        return undefined;
      }
      handedOver = true;
      return countOnThreads(search, reach);
    },
    ...(signal ? { signal } : {}),
  });
  if (end.found !== undefined) return { found: true, offset: end.found };
  const totalLines = await linesCounted(handle, scanner, end);
  if (end.offset >= version.size) index.complete(key, version, end.newlines, totalLines);
  return { found: false, totalLines };
}

/**
 * The lines in `[from, size)` of a file, `from` being the start of a line: "\n" bytes, plus one
 * when the last byte is not "\n". Reads with the scanner's buffer.
 */
export async function countLinesFrom(
  handle: FileHandle,
  scanner: NewlineScanner,
  from: number,
  size: number,
): Promise<{ readonly newlines: number; readonly lines: number }> {
  const end = await countSerially({ handle, scanner, from: { offset: from, newlines: 0 }, to: size });
  return { newlines: end.newlines, lines: await linesCounted(handle, scanner, end) };
}

/**
 * Whether the line is likely at least {@link SERIAL_LEAD_BYTES} past `reach`, judging by the
 * lines counted since `start` (none counted yet: unknown, so no). Only decides who counts.
 */
function farAhead(start: Checkpoint, reach: Checkpoint, line: number): boolean {
  const lines = reach.newlines - start.newlines;
  if (lines <= 0) return false;
  const bytesPerLine = (reach.offset - start.offset) / lines;
  return (line - 1 - reach.newlines) * bytesPerLine >= SERIAL_LEAD_BYTES;
}

/** The rest of a scan on the counting threads; undefined when they are busy or failed. */
async function countOnThreads(search: LineSearch, reach: Checkpoint): Promise<CountReach | undefined> {
  const { threads, handle, index, key, version, signal } = search;
  if (!threads || version.size - reach.offset < SERIAL_LEAD_BYTES) return undefined;
  const counting = threads.tryCount({
    fd: handle.fd,
    start: reach.offset,
    newlines: reach.newlines,
    end: version.size,
    until: search.line - 1,
    onCheckpoint: (offset, before) => index.record(key, version, offset, before),
    ...(signal ? { signal } : {}),
  });
  if (!counting) return undefined;
  try {
    return await counting;
  } catch {
    if (signal?.aborted) throw signal.reason;
    // A thread's read failed: count on this thread, which reports the error the usual way.
    return undefined;
  }
}
