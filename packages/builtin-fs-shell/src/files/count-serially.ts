import type { FileHandle } from 'node:fs/promises';
import type { Checkpoint } from './line-index.js';
import type { NewlineScanner } from './newline-scanner.js';

/** Bytes counted between two checkpoints offered to the line index. */
export const SEGMENT_BYTES = 1024 * 1024;

/** A count of a byte range on the calling thread. */
export interface SerialCount {
  readonly handle: FileHandle;
  /** Its buffer takes the reads; its kernel counts them. */
  readonly scanner: NewlineScanner;
  /** Where counting starts (a line start or a checkpoint) and the newlines before it. */
  readonly from: Checkpoint;
  /** Where counting stops (exclusive), usually the file size. */
  readonly to: number;
  /**
   * Stop at this newline (counted from `from`'s base, 1-based) and give the byte after it.
   * Omit to count to `to`.
   */
  readonly until?: number;
  /** Size of the first read; reads double up to the scanner's buffer (default: the buffer). */
  readonly firstChunk?: number;
  /** Called in file order with each segment's end and the newlines before it. */
  readonly onCheckpoint?: (offset: number, newlines: number) => void;
  /**
   * Called before each read with how far the count got; may return a point further on that
   * was counted elsewhere (the counting threads), from which the count goes on.
   */
  readonly beforeRead?: (reach: Checkpoint) => Promise<Checkpoint | undefined> | Checkpoint | undefined;
  /** Called after each read, before its bytes are counted; throws to stop the count. */
  readonly afterRead?: () => Promise<void>;
  readonly signal?: AbortSignal;
}

/**
 * How far a count got: `newlines` "\n" bytes before `offset` (`to`, or earlier when the file
 * ended sooner, or the start of the segment holding the wanted newline). `lastByte` is the byte
 * before `offset` when this count read it; `found` the byte after the wanted newline.
 */
export interface SerialCountEnd {
  readonly offset: number;
  readonly newlines: number;
  readonly lastByte?: number;
  readonly found?: number;
}

/**
 * Counts "\n" bytes of `[from, to)` on this thread: reads chunks into the scanner's one buffer
 * and counts them one segment ({@link SEGMENT_BYTES}) at a time, reporting each segment's end
 * as a checkpoint. Memory stays the buffer; the event loop is held one chunk's count at a time.
 */
export async function countSerially(count: SerialCount): Promise<SerialCountEnd> {
  const { handle, scanner, signal } = count;
  const buffer = scanner.buffer;
  let position = count.from.offset;
  let newlines = count.from.newlines;
  let chunk = Math.min(count.firstChunk ?? buffer.length, buffer.length);
  let lastByte: number | undefined;
  // Bounded: every pass reads at least one byte, moves past bytes counted elsewhere, or stops.
  while (position < count.to) {
    if (signal?.aborted) throw signal.reason;
    const ahead = await count.beforeRead?.({ offset: position, newlines });
    if (ahead && ahead.offset > position) {
      position = ahead.offset;
      newlines = ahead.newlines;
      lastByte = undefined;
      // Counted elsewhere up to a segment's start: what is left of the count is usually that
      // segment (it holds the wanted line), read at once rather than in growing chunks.
      chunk = Math.max(chunk, Math.min(SEGMENT_BYTES, buffer.length));
      continue;
    }
    const { bytesRead } = await handle.read(buffer, 0, Math.min(chunk, count.to - position), position);
    if (bytesRead === 0) break;
    await count.afterRead?.();
    for (let segment = 0; segment < bytesRead; segment += SEGMENT_BYTES) {
      const size = Math.min(SEGMENT_BYTES, bytesRead - segment);
      const found = scanner.count(segment, size);
      if (count.until !== undefined && newlines + found >= count.until) {
        const at = scanner.locate(segment, size, count.until - newlines);
        return { offset: position + segment, newlines, found: position + segment + at + 1 };
      }
      newlines += found;
      count.onCheckpoint?.(position + segment + size, newlines);
    }
    lastByte = buffer[bytesRead - 1];
    position += bytesRead;
    chunk = Math.min(chunk * 2, buffer.length);
  }
  return { offset: position, newlines, ...(lastByte === undefined ? {} : { lastByte }) };
}

/**
 * Lines from a count's start (a line start) to its end: its newlines, plus one when the byte
 * before its end is not "\n" (a last line without one). Reads that byte when the count did not.
 */
export async function linesCounted(
  handle: FileHandle,
  scanner: NewlineScanner,
  end: { readonly offset: number; readonly newlines: number; readonly lastByte?: number },
): Promise<number> {
  let lastByte = end.lastByte;
  if (lastByte === undefined && end.offset > 0) {
    const { bytesRead } = await handle.read(scanner.buffer, 0, 1, end.offset - 1);
    if (bytesRead === 1) lastByte = scanner.buffer[0];
  }
  return end.newlines + (lastByte !== undefined && lastByte !== 10 ? 1 : 0);
}
