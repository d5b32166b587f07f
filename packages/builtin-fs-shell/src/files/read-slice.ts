import type { FileHandle } from 'node:fs/promises';
import type { CountThreads } from './count-threads.js';
import type { FileVersion, LineIndexCache } from './line-index.js';
import type { ScannerPool } from './newline-scanner.js';
import { countLinesFrom, findLineStart } from './skip-lines.js';

/** What to read from a text file. */
export interface SliceRequest {
  readonly handle: FileHandle;
  /** The file's identity in the line index (its real path). */
  readonly key: string;
  readonly version: FileVersion;
  /** First line, 1-based. */
  readonly offset: number;
  readonly limit: number;
  /** Stop once this many bytes of line text are collected. */
  readonly maxBytes: number;
  /** Longer lines are cut to this many characters. */
  readonly maxLineLength: number;
  readonly index: LineIndexCache;
  readonly scanners: ScannerPool;
  /** Threads that count the bytes before a far-away line (see {@link findLineStart}). */
  readonly threads?: CountThreads | null;
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
  /** Total lines, when the read reached the end of the file or the line index has counted it. */
  readonly totalLines?: number;
}

// Lines are collected with one read of 256 KiB (2000 lines of 100 bytes fit; each read is a
// thread-pool round trip, so a first read of 64 KiB doubling cost three), growing to 1 MiB for
// long lines.
const FIRST_CHUNK = 256 * 1024;
const MAX_CHUNK = 1024 * 1024;

/**
 * When a read stops this close to the end of a file, the rest is counted too (well under a
 * millisecond with the SIMD kernel), so the reader learns how many lines the file has.
 */
export const COUNT_REST_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Reads lines `offset .. offset+limit-1` of a file. First a skip phase finds where line
 * `offset` starts by counting newlines in big chunks (see {@link findLineStart}), starting
 * from the line index's nearest checkpoint; then the lines are collected. Memory stays flat
 * however large the file is.
 */
export async function readSlice(request: SliceRequest): Promise<Slice> {
  const { handle, key, version, index } = request;
  const size = version.size;
  const scanner = request.scanners.acquire();
  let start: Awaited<ReturnType<typeof findLineStart>>;
  try {
    start = await findLineStart({
      handle,
      key,
      version,
      line: request.offset,
      index,
      scanner,
      threads: request.threads ?? null,
      ...(request.signal ? { signal: request.signal } : {}),
    });
  } finally {
    request.scanners.release(scanner);
  }
  if (!start.found) {
    return {
      lines: [],
      firstLine: request.offset,
      more: false,
      cappedByBytes: false,
      longLines: 0,
      totalLines: start.totalLines,
    };
  }
  let line = request.offset;
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

  /** Ends the current line; `text` is given when the whole line was decoded in one piece. */
  const finishLine = (decoded?: string): void => {
    let text = decoded ?? Buffer.concat(current).toString('utf8');
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
      if (end < bytesRead && currentBytes === 0 && end - cursor <= lineByteCap) {
        // The usual case: the whole line is in this chunk; decode it in place.
        currentBytes = end - cursor;
        finishLine(buffer.toString('utf8', cursor, end));
      } else {
        if (currentBytes <= lineByteCap) {
          const part = buffer.subarray(cursor, Math.min(end, cursor + lineByteCap + 1 - currentBytes));
          current.push(Buffer.from(part));
          currentBytes += part.length;
        }
        if (end === bytesRead) {
          cursor = bytesRead;
          break;
        }
        finishLine();
      }
      cursor = end + 1;
      partial = false;
      if (collected >= request.maxBytes) cappedByBytes = true;
      line++;
    }
    position += cursor;
    if (buffer.length < MAX_CHUNK) buffer = Buffer.allocUnsafe(buffer.length * 2);
  }
  // A last line without a trailing newline.
  if (position >= size && !done() && partial) {
    finishLine();
    line++;
  }
  const more = position < size;
  const totalLines = more ? await knownTotal(request, position, line) : line - 1;
  return {
    lines,
    firstLine: request.offset,
    more,
    cappedByBytes: cappedByBytes && more,
    longLines,
    ...(totalLines === undefined ? {} : { totalLines }),
  };
}

/**
 * The file's line count after a read that stopped at `position` (the start of line `line`):
 * from the line index when a scan counted the file, else by counting the rest when it is small.
 */
async function knownTotal(
  request: SliceRequest,
  position: number,
  line: number,
): Promise<number | undefined> {
  const { index, key, version } = request;
  const known = index.totalLines(key, version);
  if (known !== undefined || version.size - position > COUNT_REST_MAX_BYTES) return known;
  const scanner = request.scanners.acquire();
  try {
    const rest = await countLinesFrom(request.handle, scanner, position, version.size);
    index.complete(key, version, line - 1 + rest.newlines, line - 1 + rest.lines);
    return line - 1 + rest.lines;
  } finally {
    request.scanners.release(scanner);
  }
}
