import type { FileHandle } from 'node:fs/promises';
import type { LineIndexCache } from './line-index.js';

/** What to read from a text file. */
export interface SliceRequest {
  readonly handle: FileHandle;
  readonly key: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** First line, 1-based. */
  readonly offset: number;
  readonly limit: number;
  /** Stop once this many bytes of line text are collected. */
  readonly maxBytes: number;
  /** Longer lines are cut to this many characters. */
  readonly maxLineLength: number;
  readonly index: LineIndexCache;
  readonly signal?: AbortSignal;
}

/** Lines read from a file. */
export interface Slice {
  readonly lines: string[];
  /** 1-based number of the first returned line. */
  readonly firstLine: number;
  /** True when the file continues after the last returned line. */
  readonly more: boolean;
  /** True when the byte cap stopped the read before `limit` lines. */
  readonly cappedByBytes: boolean;
  /** Number of lines cut to `maxLineLength`. */
  readonly longLines: number;
  /** Total lines, when the read reached the end of the file. */
  readonly totalLines?: number;
}

// Reads start small (a slice near the top needs little) and grow to 1 MiB for long scans.
const FIRST_CHUNK = 64 * 1024;
const MAX_CHUNK = 1024 * 1024;

/**
 * Reads lines `offset .. offset+limit-1` of a file in fixed-size chunks, so memory stays flat
 * however large the file is; the line index lets later reads skip the scan to the offset.
 */
export async function readSlice(request: SliceRequest): Promise<Slice> {
  const { handle, key, size, mtimeMs, index } = request;
  const start = index.nearest(key, size, mtimeMs, request.offset);
  let line = start.line;
  let position = start.offset;
  let buffer = Buffer.allocUnsafe(FIRST_CHUNK);
  const lines: string[] = [];
  let collected = 0;
  let longLines = 0;
  let current: Buffer[] = [];
  let currentBytes = 0;
  let cappedByBytes = false;
  let partial = false;
  const lineByteCap = request.maxLineLength * 4 + 4;

  const finishLine = (): void => {
    let text = Buffer.concat(current).toString('utf8');
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.length > request.maxLineLength || currentBytes > lineByteCap) {
      text = `${text.slice(0, request.maxLineLength)} [line truncated]`;
      longLines++;
    }
    lines.push(text);
    collected += Buffer.byteLength(text);
    current = [];
    currentBytes = 0;
  };

  const wanted = (): boolean => line >= request.offset;
  const done = (): boolean => lines.length >= request.limit || cappedByBytes;

  while (position < size && !done()) {
    if (request.signal?.aborted) throw request.signal.reason;
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    let cursor = 0;
    while (cursor < bytesRead && !done()) {
      const newline = buffer.indexOf(10, cursor);
      const end = newline === -1 || newline >= bytesRead ? bytesRead : newline;
      if (end > cursor) partial = true;
      if (wanted() && currentBytes <= lineByteCap) {
        const part = buffer.subarray(cursor, Math.min(end, cursor + lineByteCap + 1 - currentBytes));
        current.push(Buffer.from(part));
        currentBytes += part.length;
      }
      if (end === bytesRead) {
        cursor = bytesRead;
        break;
      }
      cursor = end + 1;
      partial = false;
      if (wanted()) {
        finishLine();
        if (collected >= request.maxBytes) cappedByBytes = true;
      }
      line++;
      index.record(key, size, mtimeMs, line, position + cursor);
    }
    position += cursor;
    if (buffer.length < MAX_CHUNK) buffer = Buffer.allocUnsafe(buffer.length * 2);
  }
  // A last line without a trailing newline.
  if (position >= size && !done() && partial) {
    if (wanted()) finishLine();
    line++;
  }
  const more = position < size;
  return {
    lines,
    firstLine: request.offset,
    more,
    cappedByBytes: cappedByBytes && more,
    longLines,
    ...(more ? {} : { totalLines: line - 1 }),
  };
}
