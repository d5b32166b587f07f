import type { FileHandle } from 'node:fs/promises';
import { COUNT_REST_MAX_BYTES, type Slice } from './read-slice.js';

/** Bytes of the file decoded at a time. */
const CHUNK_BYTES = 1024 * 1024;

/** What {@link readUtf16Slice} reads. */
export interface Utf16SliceRequest {
  readonly handle: FileHandle;
  readonly encoding: 'utf16le' | 'utf16be';
  /** The file's size in bytes (its byte order mark included). */
  readonly size: number;
  /** First line wanted, 1-based. */
  readonly offset: number;
  readonly limit: number;
  /** Most bytes (UTF-8) of the lines returned. */
  readonly maxBytes: number;
  /** Longer lines are cut to this many characters. */
  readonly maxLineLength: number;
  readonly signal?: AbortSignal;
}

/**
 * Lines `offset .. offset+limit-1` of a UTF-16 file (with a byte order mark), decoded as it is
 * read, a megabyte at a time: memory stays flat however large the file (its lines are cut to
 * `maxLineLength`, and the lines before `offset` are only counted). UTF-16 lines cannot be
 * found by scanning bytes for "\n" the way the line index does, so each read decodes from the
 * file's start. The line count is known when the read reaches the end, or when what follows
 * the last line returned is at most {@link COUNT_REST_MAX_BYTES} of the file.
 */
export async function readUtf16Slice(request: Utf16SliceRequest): Promise<Slice> {
  const { handle, offset, limit, maxBytes, maxLineLength, signal } = request;
  const decoder = new TextDecoder(request.encoding === 'utf16le' ? 'utf-16le' : 'utf-16be');
  const source = Buffer.allocUnsafe(CHUNK_BYTES);
  const keep = maxLineLength + 2; // enough of a line to know it is long, and a "\r" after it
  const lines: string[] = [];
  let state: 'skip' | 'take' | 'count' = offset === 1 ? 'take' : 'skip';
  let line = 1; // the line the decoded text has reached
  let lineHasText = false;
  let partial = ''; // the start of a wanted line not yet ended
  let longLines = 0;
  let bytes = 0;
  let cappedByBytes = false;

  /** Adds a wanted line; false once the lines reach the byte cap (as the UTF-8 reader counts). */
  const take = (full: string): boolean => {
    const shown = full.endsWith('\r') ? full.slice(0, -1) : full;
    const cut = shown.length > maxLineLength;
    if (cut) longLines++;
    const kept = cut ? `${shown.slice(0, maxLineLength)} [line truncated]` : shown;
    lines.push(kept);
    bytes += Buffer.byteLength(kept, 'utf8') + 1;
    return bytes < maxBytes;
  };
  const slice = (more: boolean, totalLines?: number): Slice => ({
    lines,
    firstLine: offset,
    more,
    cappedByBytes: cappedByBytes && more,
    longLines,
    ...(totalLines === undefined ? {} : { totalLines }),
  });

  for (let position = 2; ; ) {
    if (signal?.aborted) throw signal.reason;
    const { bytesRead } = await handle.read(source, 0, source.length, position);
    position += bytesRead;
    const text =
      bytesRead === 0 ? decoder.decode() : decoder.decode(source.subarray(0, bytesRead), { stream: true });
    let from = 0;
    while (from < text.length) {
      const newline = text.indexOf('\n', from);
      if (state === 'count') {
        const last = text.lastIndexOf('\n');
        if (last >= from) {
          line += countNewlines(text, from);
          lineHasText = last < text.length - 1;
        } else {
          lineHasText = true;
        }
        break;
      }
      if (newline === -1) {
        if (state === 'take') partial = (partial + text.slice(from, from + keep)).slice(0, keep);
        lineHasText = true;
        break;
      }
      if (state === 'take') {
        cappedByBytes = !take(partial + text.slice(from, Math.min(newline, from + keep)));
        partial = '';
      }
      line++;
      lineHasText = false;
      from = newline + 1;
      if (state === 'skip' && line >= offset) state = 'take';
      else if (state === 'take' && (lines.length >= limit || cappedByBytes)) state = 'count';
    }
    if (bytesRead === 0) break;
    // Past the lines wanted with much of the file left: the count is not worth reading it.
    if (state === 'count' && request.size - position > COUNT_REST_MAX_BYTES) return slice(true);
  }
  // A last line with no "\n" after it.
  if (state === 'take' && lineHasText) take(partial);
  const totalLines = lineHasText ? line : line - 1;
  return slice(totalLines > offset - 1 + lines.length, totalLines);
}

function countNewlines(text: string, from: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
