import type { FileHandle } from 'node:fs/promises';
import type { Checkpoint } from './line-index.js';
import type { NewlineScanner } from './newline-scanner.js';

// The line is usually a few hundred lines back: start small, double up to the scanner's buffer.
const FIRST_CHUNK = 64 * 1024;

/** A search for a line's start by counting back from a checkpoint after it. */
export interface BackwardSearch {
  readonly handle: FileHandle;
  readonly scanner: NewlineScanner;
  /** A checkpoint at or after the start of the line (at least `line - 1` newlines before it). */
  readonly from: Checkpoint;
  /** The line, 1-based. */
  readonly line: number;
  /** Bytes read at most before giving up. */
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
}

/**
 * The byte offset where line `line` starts, found by counting "\n" bytes backwards from
 * `from`; undefined when it lies more than `maxBytes` back (or the file is shorter than the
 * checkpoint says, having changed). Memory stays the scanner's buffer.
 */
export async function findLineBackward(search: BackwardSearch): Promise<number | undefined> {
  const { handle, scanner, signal } = search;
  // Line N starts after the (N-1)-th "\n" of the file.
  const wanted = search.line - 1;
  if (wanted <= 0) return 0;
  if (search.from.newlines < wanted) return undefined;
  const floor = Math.max(0, search.from.offset - search.maxBytes);
  let end = search.from.offset;
  // "\n" bytes in [0, end); the wanted one is among them.
  let before = search.from.newlines;
  let chunk = Math.min(FIRST_CHUNK, scanner.buffer.length);
  // Bounded: every pass moves `end` back by a whole chunk, or returns.
  while (end > floor) {
    if (signal?.aborted) throw signal.reason;
    const size = Math.min(chunk, end - floor);
    const start = end - size;
    const { bytesRead } = await handle.read(scanner.buffer, 0, size, start);
    if (bytesRead !== size) return undefined;
    const count = scanner.count(0, size);
    if (before - count < wanted) {
      const at = scanner.locate(0, size, wanted - (before - count));
      return at === -1 ? undefined : start + at + 1;
    }
    before -= count;
    end = start;
    chunk = Math.min(chunk * 2, scanner.buffer.length);
  }
  return undefined;
}
