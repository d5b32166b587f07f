import type { LineFinder } from './linear-lines.js';
import type { SearchPattern } from './pattern.js';
import type { LineHit } from './results.js';
import type { SearchRequest } from './search-request.js';

/** Lines (1-based numbers) that match, found with one scan of the whole text (V8's engine). */
export function matchingLines(text: string, pattern: SearchPattern, firstOnly: boolean): number[] {
  const scanner = pattern.scanner;
  scanner.lastIndex = 0;
  const found: number[] = [];
  let line = 1;
  let lineStart = 0;
  for (;;) {
    const match = scanner.exec(text);
    if (!match) break;
    // Advance the line counter to the line holding the match start.
    let next = text.indexOf('\n', lineStart);
    while (next !== -1 && next < match.index) {
      line++;
      lineStart = next + 1;
      next = text.indexOf('\n', lineStart);
    }
    // A match after the last "\n" is on no line (ripgrep counts the lines there are).
    if (lineStart >= text.length) break;
    const lineEnd = next === -1 ? text.length : next;
    if (pattern.line.test(text.slice(lineStart, lineEnd))) {
      found.push(line);
      if (firstOnly) break;
    }
    if (next === -1) break;
    line++;
    lineStart = next + 1;
    scanner.lastIndex = lineStart;
  }
  return found;
}

/** One piece of a file: whole lines, with where they start. */
export interface Chunk {
  readonly bytes: Buffer;
  /** Byte offset of `bytes[0]` in the file. */
  readonly start: number;
  /** Number of the chunk's first line in the file (1-based). */
  readonly firstLine: number;
  /** Number of "\n" in the chunk, when a chunk follows (its lines are all whole then). */
  readonly newlines?: number;
}

/** Walks the lines of a chunk forward, in its text and (for offsets) in its bytes together. */
class LineWalker {
  private line = 1;
  private at = 0;
  private byteAt = 0;
  constructor(
    private readonly chunk: Chunk,
    private readonly text: string,
    private readonly withOffsets: boolean,
  ) {}

  /**
   * Line `wanted` (1-based, not before the last one asked for), or undefined past the end; with
   * offsets, where it starts and where it ends (after its "\n") in the file.
   */
  to(wanted: number): { readonly text: string; readonly offset?: number; readonly end?: number } | undefined {
    const { text } = this;
    const { bytes } = this.chunk;
    while (this.line < wanted) {
      const next = text.indexOf('\n', this.at);
      if (next === -1) return undefined;
      this.at = next + 1;
      if (this.withOffsets) this.byteAt = bytes.indexOf(10, this.byteAt) + 1;
      this.line++;
    }
    // After the last "\n" nothing is left: no such line (as `split` then dropping a last '').
    if (this.at >= text.length) return undefined;
    const end = text.indexOf('\n', this.at);
    const line = text.slice(this.at, end === -1 ? text.length : end);
    if (!this.withOffsets) return { text: line };
    const byteEnd = bytes.indexOf(10, this.byteAt);
    const start = this.chunk.start;
    return {
      text: line,
      offset: start + this.byteAt,
      end: start + (byteEnd === -1 ? bytes.length : byteEnd + 1),
    };
  }
}

/** Offset in `bytes` just after the end of line `line` (1-based; the end when it has no "\n"). */
function lineEnd(bytes: Buffer, line: number): number {
  let at = -1;
  for (let passed = 0; passed < line; passed++) {
    const next = bytes.indexOf(10, at + 1);
    if (next === -1) return bytes.length;
    at = next;
  }
  return at + 1;
}

/** A line kept, and where it ends in the file (after its "\n"), when offsets are known. */
interface Kept {
  readonly hit: LineHit;
  readonly end?: number;
}

/** The last `most` lines of a chunk that ends with "\n", oldest first. */
function lastLines(chunk: Chunk, text: string, most: number, withOffsets: boolean): Kept[] {
  const { bytes, start, firstLine, newlines = 0 } = chunk;
  const found: Kept[] = [];
  let end = text.length - 1;
  let byteEnd = bytes.length - 1;
  for (let back = 0; back < most && back < newlines; back++) {
    const from = end === 0 ? 0 : text.lastIndexOf('\n', end - 1) + 1;
    const byteFrom = byteEnd === 0 ? 0 : bytes.lastIndexOf(10, byteEnd - 1) + 1;
    const line = firstLine + newlines - 1 - back;
    const hit = { line, match: false, text: text.slice(from, end) };
    found.unshift(
      withOffsets ? { hit: { ...hit, offset: start + byteFrom }, end: start + byteEnd + 1 } : { hit },
    );
    end = from - 1;
    byteEnd = byteFrom - 1;
  }
  return found;
}

/**
 * What a search finds in one file, fed chunk by chunk: matching lines are counted, and in
 * content mode the matches and their context lines are kept, context crossing chunk ends
 * included, each line once, in order.
 */
export class FileHitsCollector {
  count = 0;
  /** Files mode: where the line of the first match ends in the file (after its "\n"). */
  firstMatchEnd = 0;
  readonly lines: LineHit[] = [];
  /** Last line kept (global number). */
  private kept = 0;
  /** After-context still wanted up to this line (global number). */
  private afterUntil = 0;
  /** Where each kept line ends in the file (after its "\n"), when offsets are known. */
  private readonly ends: number[] = [];
  /** The text of the chunk being searched, once decoded. */
  private decoded: string | undefined;
  /** The last lines of the chunks so far, for before-context of a match early in the next. */
  private tail: Kept[] = [];

  constructor(
    private readonly request: SearchRequest,
    private withOffsets: boolean,
    private readonly literal: Buffer | undefined,
    private readonly findLines: LineFinder,
  ) {}

  /** Searches one chunk; false when the search of this file is over (files mode, a match). */
  add(chunk: Chunk): boolean {
    const { mode, before, after } = this.request;
    // Decoded only when needed: most chunks of a literal search do not hold the literal.
    this.decoded = undefined;
    const skip = this.literal !== undefined && chunk.bytes.indexOf(this.literal) === -1;
    const matches = skip ? [] : this.findLines(this.textOf(chunk), mode === 'files_with_matches');
    this.count += matches.length;
    if (mode === 'files_with_matches') {
      const found = matches[0];
      if (found === undefined) return true;
      this.firstMatchEnd = chunk.start + lineEnd(chunk.bytes, found);
      return false;
    }
    if (mode !== 'content') return true;
    const first = chunk.firstLine;
    const firstMatch = matches[0];
    if (firstMatch !== undefined) {
      const from = first + firstMatch - 1 - before;
      for (const kept of this.tail) if (kept.hit.line >= from) this.keep(kept);
    }
    const ranges: Array<readonly [number, number]> = [];
    if (this.afterUntil >= first) ranges.push([1, this.afterUntil - first + 1]);
    for (const line of matches) ranges.push([Math.max(1, line - before), line + after]);
    const matched = new Set(matches);
    const walker =
      ranges.length > 0 ? new LineWalker(chunk, this.textOf(chunk), this.withOffsets) : undefined;
    for (const [from, to] of ranges) {
      for (let local = Math.max(from, this.kept - first + 2); local <= to; local++) {
        const found = walker?.to(local);
        if (!found) break;
        const { end, ...line } = found;
        this.keep({ hit: { line: first + local - 1, match: matched.has(local), ...line }, end });
      }
    }
    const lastMatch = matches.at(-1);
    if (lastMatch !== undefined) this.afterUntil = first + lastMatch - 1 + after;
    if (before > 0 && chunk.newlines !== undefined) {
      this.tail = [...this.tail, ...lastLines(chunk, this.textOf(chunk), before, this.withOffsets)].slice(
        -before,
      );
    }
    return true;
  }

  /** The chunk's text, decoded once, when first needed. */
  private textOf(chunk: Chunk): string {
    this.decoded ??= chunk.bytes.toString('utf8');
    return this.decoded;
  }

  private keep({ hit, end }: Kept): void {
    if (hit.line <= this.kept) return;
    this.lines.push(hit);
    if (end !== undefined) this.ends.push(end);
    this.kept = hit.line;
  }

  /**
   * For {@link ripgrepBinaryCut}: a function giving, for non-decreasing file positions, where
   * the last line ripgrep had printed by then ends: the last match ending there or before, and
   * its after-context lines up to there (before-context lines are printed with their match).
   * Needs offsets.
   */
  printedBefore(): (position: number) => number {
    let next = 0;
    let matchLine = Number.NEGATIVE_INFINITY;
    let last = 0;
    return (position) => {
      for (; next < this.lines.length && (this.ends[next] as number) <= position; next++) {
        const hit = this.lines[next] as LineHit;
        if (hit.match) matchLine = hit.line;
        if (hit.line <= matchLine + this.request.after) last = this.ends[next] as number;
      }
      return last;
    };
  }

  /** Reports where lines start from now on (called before any line is kept). */
  trackOffsets(): void {
    if (this.lines.length > 0 && !this.withOffsets)
      throw new Error('offsets asked for after lines were kept');
    this.withOffsets = true;
  }

  /** Drops what was kept from `position` on (a file's text ends there) and the matches in it. */
  cutAt(position: number): void {
    let keep = this.lines.length;
    while (keep > 0 && (this.lines[keep - 1]?.offset as number) >= position) keep--;
    for (const hit of this.lines.splice(keep)) if (hit.match) this.count--;
    // Before-context of a match dropped goes with it: only after-context may follow the last match.
    const lastMatch = this.lines.findLast((hit) => hit.match)?.line ?? Number.NEGATIVE_INFINITY;
    while (keep > 0 && (this.lines[keep - 1] as LineHit).line > lastMatch + this.request.after) keep--;
    this.lines.splice(keep);
    this.ends.splice(keep);
  }
}
