import type { ReadAt } from './read-fully.js';

/** ripgrep's line buffer starts at 64 KiB, and triples when a line does not fit in it. */
const RIPGREP_BUFFER_BYTES = 64 * 1024;

/** Bytes `[from, to)` of the file, in `scratch` when it is large enough. */
function window(readAt: ReadAt, scratch: { buffer: Buffer }, from: number, to: number): Buffer {
  if (scratch.buffer.length < to - from) scratch.buffer = Buffer.allocUnsafe(to - from);
  return scratch.buffer.subarray(0, readAt(scratch.buffer, 0, to - from, from));
}

/** Start of the line `count` lines before the last line of `bytes` (which ends with "\n"). */
function preceding(bytes: Buffer, count: number): number {
  let end = bytes.length - 1;
  for (let left = count; ; left--) {
    const at = end <= 0 ? -1 : bytes.lastIndexOf(10, end - 1);
    if (at === -1) return 0;
    if (left === 0) return at + 1;
    if (at === 0) return 0;
    end = at;
  }
}

/**
 * Where ripgrep stops searching a file whose first NUL byte is at `nul`. ripgrep reads a file
 * into a line buffer, searches the whole lines in it, keeps the unfinished line (and, with
 * context lines, the lines context may still need) and reads on; the read that brings in a
 * NUL ends the search, so nothing from that read, nor the unfinished line before it, is
 * searched. This replays those reads for a fresh buffer: 64 KiB, tripled each time a read
 * ends without a line end, keeping `context` lines before the unfinished one but none before
 * the end of the last line printed (`printedBefore`, asked for non-decreasing positions).
 */
export function ripgrepBinaryCut(
  readAt: ReadAt,
  nul: number,
  context: number,
  printedBefore: (position: number) => number = () => 0,
): number {
  const scratch = { buffer: Buffer.allocUnsafe(RIPGREP_BUFFER_BYTES) };
  let capacity = RIPGREP_BUFFER_BYTES;
  let kept = 0; // where the buffer starts in the file
  let unfinished = 0; // start of the line not yet whole in it
  let filled = 0; // end of the bytes in it
  for (;;) {
    const readEnd = kept + capacity;
    if (nul < readEnd) return unfinished;
    const bytes = window(readAt, scratch, kept, readEnd);
    const lastNewline = bytes.lastIndexOf(10);
    if (bytes.length < readEnd - kept) return unfinished; // the file shrank: nothing more is sure
    const fresh = lastNewline >= filled - kept;
    filled = readEnd;
    if (!fresh) {
      capacity *= 3;
      continue;
    }
    unfinished = kept + lastNewline + 1;
    const next = context === 0 ? unfinished : kept + preceding(bytes.subarray(0, lastNewline + 1), context);
    kept = Math.max(kept, next, context === 0 ? 0 : printedBefore(unfinished));
  }
}
