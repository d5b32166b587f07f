import type { FileHandle } from 'node:fs/promises';
import type { CountReach, CountThreads } from './count-threads.js';
import type { FileVersion, LineIndexCache } from './line-index.js';
import type { NewlineScanner } from './newline-scanner.js';

/** Bytes counted between two offers of a checkpoint to the index. */
export const SEGMENT_BYTES = 1024 * 1024;

// A scan starts with a small read (the line is often close) and doubles up to the scanner's buffer.
const FIRST_CHUNK = 64 * 1024;

/**
 * Bytes a scan counts on its own thread before it hands the rest to the counting threads (most
 * lines asked for are near the start or near a checkpoint), and the least it hands over.
 */
export const SERIAL_LEAD_BYTES = 2 * 1024 * 1024;

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
 * Finds where line `line` starts without looking at the lines before it: reads chunks into
 * the scanner's one buffer and counts "\n" bytes in them, offering the index a checkpoint every
 * {@link SEGMENT_BYTES}. Starts from the index's nearest checkpoint. Past
 * {@link SERIAL_LEAD_BYTES} the counting threads, when given and free, count the rest up to
 * the segment that holds the line. Memory stays the buffer (and one small one per thread).
 */
export async function findLineStart(search: LineSearch): Promise<LineStart> {
  const { handle, key, version, index, scanner, signal } = search;
  const start = index.nearest(key, version, search.line);
  // "\n" bytes still to pass: line N starts after the (N-1)-th one.
  if (search.line - 1 - start.newlines <= 0) return { found: true, offset: start.offset };
  let position = start.offset;
  let newlines = start.newlines;
  let chunk = Math.min(FIRST_CHUNK, scanner.buffer.length);
  let lastByte: number | undefined;
  let handedOver = !search.threads;
  let warmed = false;
  while (position < version.size) {
    if (signal?.aborted) throw signal.reason;
    if (!handedOver && position - start.offset >= SERIAL_LEAD_BYTES) {
      // Threads still starting: keep counting here meanwhile, and hand over once they are up.
      if (search.threads?.ready === false) {
        if (!warmed) search.threads.warm();
        warmed = true;
      } else {
        handedOver = true;
        const reach = await countOnThreads(search, position, newlines);
        if (reach) {
          position = reach.offset;
          newlines = reach.newlines;
          lastByte = undefined;
          continue;
        }
      }
    }
    const length = Math.min(chunk, version.size - position);
    const { bytesRead } = await handle.read(scanner.buffer, 0, length, position);
    if (bytesRead === 0) break;
    for (let segment = 0; segment < bytesRead; segment += SEGMENT_BYTES) {
      const size = Math.min(SEGMENT_BYTES, bytesRead - segment);
      const count = scanner.count(segment, size);
      if (newlines + count >= search.line - 1) {
        const at = scanner.locate(segment, size, search.line - 1 - newlines);
        return { found: true, offset: position + segment + at + 1 };
      }
      newlines += count;
      index.record(key, version, position + segment + size, newlines);
    }
    lastByte = scanner.buffer[bytesRead - 1];
    position += bytesRead;
    chunk = Math.min(chunk * 2, scanner.buffer.length);
  }
  if (lastByte === undefined && position > 0) {
    // Started at a checkpoint at the very end: look at the last byte for an unterminated line.
    const { bytesRead } = await handle.read(scanner.buffer, 0, 1, position - 1);
    if (bytesRead === 1) lastByte = scanner.buffer[0];
  }
  const unterminated = lastByte !== undefined && lastByte !== 10 ? 1 : 0;
  if (position >= version.size) index.complete(key, version, newlines, newlines + unterminated);
  return { found: false, totalLines: newlines + unterminated };
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
  let newlines = 0;
  let lastByte: number | undefined;
  // Bounded: every pass reads at least one byte or stops.
  for (let position = from; position < size; ) {
    const { bytesRead } = await handle.read(
      scanner.buffer,
      0,
      Math.min(scanner.buffer.length, size - position),
      position,
    );
    if (bytesRead === 0) break;
    newlines += scanner.count(0, bytesRead);
    lastByte = scanner.buffer[bytesRead - 1];
    position += bytesRead;
  }
  return { newlines, lines: newlines + (lastByte !== undefined && lastByte !== 10 ? 1 : 0) };
}

/** The rest of a scan on the counting threads; undefined when they are busy or failed. */
async function countOnThreads(
  search: LineSearch,
  position: number,
  newlines: number,
): Promise<CountReach | undefined> {
  const { threads, handle, index, key, version, signal } = search;
  if (!threads || version.size - position < SERIAL_LEAD_BYTES) return undefined;
  const counting = threads.tryCount({
    fd: handle.fd,
    start: position,
    newlines,
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
