import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { ToolError } from '@toolplane/core';
import { formatBytes } from '../files/sniff.js';
import { ripgrepBinaryCut } from './binary-cut.js';
import { byteOrderMark, decodedText } from './decode-bom.js';
import { type ReadAt, fileReader, readFully } from './read-fully.js';
import { FileHitsCollector, matchingLines } from './chunk-hits.js';
import type { LineFinder } from './linear-lines.js';
import { LINE_STARTS_MIN_BYTES } from './line-starts.js';
import type { SearchPattern } from './pattern.js';
import type { FileHits } from './results.js';
import type { SearchRequest } from './search-request.js';

/** Bytes a search reads at a time. */
export const SEARCH_CHUNK_BYTES = 4 * 1024 * 1024;
/** Longest line the Node engine searches (a JavaScript string holds at most ~512 Mi characters). */
export const MAX_SEARCH_LINE_BYTES = 256 * 1024 * 1024;

/** State one search keeps across its files: the read buffer and how lines are matched. */
export interface FileSearchState {
  buffer: Buffer;
  /**
   * Finds matching lines: V8's engine on the pattern, until a search switches to a linear-time
   * one (a pattern that backtracked too long); files scanned from then on use that.
   */
  findLines: LineFinder;
  /** Bytes read at a time. */
  readonly chunkBytes: number;
  /** Longest line searched; a longer one fails the search. */
  readonly maxLineBytes: number;
}

/** A fresh {@link FileSearchState} (sizes other than the defaults are for tests). */
export function createFileSearchState(
  pattern: SearchPattern,
  sizes: { readonly chunkBytes?: number; readonly maxLineBytes?: number } = {},
): FileSearchState {
  const chunkBytes = sizes.chunkBytes ?? SEARCH_CHUNK_BYTES;
  const maxLineBytes = sizes.maxLineBytes ?? MAX_SEARCH_LINE_BYTES;
  return {
    buffer: Buffer.allocUnsafe(chunkBytes),
    findLines: (text, firstOnly) => matchingLines(text, pattern, firstOnly),
    chunkBytes,
    maxLineBytes,
  };
}

function countNewlines(bytes: Buffer): number {
  let total = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) total++;
  return total;
}

/** One file's search, a chunk per step; {@link close} it when done or given up. */
export class FileScan {
  private readonly collector: FileHitsCollector;
  private start = 0;
  private filled = 0;
  private firstLine = 1;
  /** Count mode met a NUL byte: ripgrep leaves the file out. */
  private dropped = false;
  private closed = false;

  constructor(
    /** The open file, closed by {@link close}. */
    private readonly fd: number,
    /** Reads the text searched: the file's bytes, or its decoded text. */
    private readonly readAt: ReadAt,
    /** The text's size, or a bound on it for a file decoded as it is read (its end is a short read). */
    private readonly size: number,
    private readonly path: string,
    private readonly request: SearchRequest,
    private readonly state: FileSearchState,
    literal: Buffer | undefined,
    /** Bytes already read into the buffer from the file's start. */
    private preread: number,
  ) {
    // Offsets for the line index, and for cutting a file read in several chunks at a NUL byte.
    const withOffsets =
      request.mode === 'content' && (size >= LINE_STARTS_MIN_BYTES || size >= state.buffer.length);
    this.collector = new FileHitsCollector(request, withOffsets, literal, state.findLines);
  }

  /** Reads and searches the next chunk; true when the file is done. */
  step(): boolean {
    const { state, request, collector } = this;
    if (state.buffer.length <= this.filled) {
      this.grow();
      return false;
    }
    const buffer = state.buffer;
    // One byte past the size seen: a file that has not grown ends with this one read.
    const wanted = Math.min(buffer.length - this.filled, this.size + 1 - this.start - this.filled);
    const read =
      this.preread >= 0 ? this.preread : this.readAt(buffer, this.filled, wanted, this.start + this.filled);
    this.preread = -1;
    const nul = buffer.subarray(this.filled, this.filled + read).indexOf(0);
    this.filled += read;
    if (nul !== -1) {
      this.cutAtNul(this.start + this.filled - read + nul);
      return true;
    }
    if (read < wanted || this.start + this.filled > this.size) {
      collector.add({ bytes: buffer.subarray(0, this.filled), start: this.start, firstLine: this.firstLine });
      return true;
    }
    const lastNewline = buffer.lastIndexOf(10, this.filled - 1);
    if (lastNewline === -1) return false; // a line longer than the buffer: read on (it grows)
    const bytes = buffer.subarray(0, lastNewline + 1);
    // Line numbers and context matter in content mode only.
    const newlines = request.mode === 'content' ? countNewlines(bytes) : 0;
    if (!collector.add({ bytes, start: this.start, firstLine: this.firstLine, newlines })) {
      this.confirmFirstMatch(this.start + this.filled);
      return true;
    }
    this.firstLine += newlines;
    this.start += bytes.length;
    buffer.copy(buffer, 0, bytes.length, this.filled);
    this.filled -= bytes.length;
    return false;
  }

  /** Closes the file (once); a buffer grown for a long line goes back to its usual size. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    const { state } = this;
    if (state.buffer.length > state.chunkBytes) state.buffer = Buffer.allocUnsafe(state.chunkBytes);
  }

  /** What the search found, once {@link step} said it was done. */
  result(): FileHits | undefined {
    const { collector } = this;
    if (this.dropped || collector.count === 0) return undefined;
    return {
      path: this.path,
      lines: this.request.mode === 'content' ? collector.lines : [],
      count: collector.count,
    };
  }

  /** A line longer than the buffer: a buffer twice the size, up to the longest line allowed. */
  private grow(): void {
    const { state } = this;
    if (state.buffer.length >= state.maxLineBytes) {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `${this.path} has a line longer than ${formatBytes(state.maxLineBytes)}, which grep without ripgrep cannot search: install ripgrep (rg) on the host, or leave the file out with a glob`,
      );
    }
    const grown = Buffer.allocUnsafe(Math.min(state.buffer.length * 2, state.maxLineBytes));
    state.buffer.copy(grown, 0, 0, this.filled);
    state.buffer = grown;
  }

  /**
   * Files mode stopped at a match before reading on: ripgrep may read that line together with a
   * NUL in the bytes that follow, and then never search it. Reads one more chunk from `from` (the
   * end of what was read) and, if it holds a NUL, keeps the match only if it ends before the cut.
   * (A NUL further on can only matter after a line over a megabyte, which grew ripgrep's reads.)
   */
  private confirmFirstMatch(from: number): void {
    const buffer = this.state.buffer;
    const read = this.readAt(buffer, 0, Math.min(buffer.length, this.state.chunkBytes), from);
    const nul = buffer.subarray(0, read).indexOf(0);
    if (nul === -1) return;
    if (this.collector.firstMatchEnd > ripgrepBinaryCut(this.readAt, from + nul, 0)) this.dropped = true;
  }

  /** The file holds a NUL byte at `at`: the text ends where ripgrep's reads would have stopped. */
  private cutAtNul(at: number): void {
    const { request, collector, start, firstLine } = this;
    const buffer = this.state.buffer;
    if (request.mode === 'count') {
      this.dropped = true;
    } else if (request.mode === 'content') {
      // The lines before the NUL's first, then the cut (it depends on what was printed).
      collector.trackOffsets();
      collector.add({ bytes: buffer.subarray(0, buffer.lastIndexOf(10, at - start) + 1), start, firstLine });
      const context = Math.max(request.before, request.after);
      collector.cutAt(ripgrepBinaryCut(this.readAt, at, context, collector.printedBefore()));
    } else {
      const cut = ripgrepBinaryCut(this.readAt, at, 0);
      if (cut > start) collector.add({ bytes: buffer.subarray(0, cut - start), start, firstLine });
    }
  }
}

/**
 * Starts the search of one file, searched in chunks cut at line ends, so a file of any size is
 * searched in bounded memory (its longest line aside). A file with a NUL byte is searched up to
 * where ripgrep stops ({@link ripgrepBinaryCut}), and count mode leaves such a file out, as
 * ripgrep does. Byte offsets of lines are reported for files large enough to be worth indexing.
 * Undefined when the file cannot be read (gone, or swapped for a FIFO or a link since the walk
 * saw it). The first chunk is read here without a `stat` when it holds the whole file (most
 * files of a tree).
 */
export function openFileScan(
  path: string,
  absolute: string,
  request: SearchRequest,
  state: FileSearchState,
  literal?: Buffer,
): FileScan | undefined {
  let fd: number;
  try {
    // Non-blocking: a file swapped for a FIFO since the walk saw it must not hang the search.
    // No link followed: a file swapped for a symbolic link to one outside is not read.
    fd = openSync(absolute, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const read = readFully(fd, state.buffer, 0, state.buffer.length, 0);
    const size = read < state.buffer.length ? read : fstatSync(fd).size;
    const mark = byteOrderMark(state.buffer.subarray(0, read));
    if (mark !== undefined) {
      // Searched as text, as ripgrep transcodes it: the mark left out, UTF-16 decoded.
      const text = decodedText(fd, mark, size);
      return new FileScan(fd, text.readAt, text.sizeBound, path, request, state, literal, -1);
    }
    return new FileScan(fd, fileReader(fd), size, path, request, state, literal, read);
  } catch {
    closeSync(fd);
    return undefined; // unreadable (a directory or FIFO swapped in since the walk): nothing to search
  }
}

/** Searches one file to its end (see {@link openFileScan}). */
export function searchFile(
  path: string,
  absolute: string,
  request: SearchRequest,
  state: FileSearchState,
  literal?: Buffer,
): FileHits | undefined {
  const scan = openFileScan(path, absolute, request, state, literal);
  if (scan === undefined) return undefined;
  try {
    while (!scan.step());
    return scan.result();
  } finally {
    scan.close();
  }
}
