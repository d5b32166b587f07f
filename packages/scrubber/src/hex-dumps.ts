import { hexDigit } from './hex-digit.js';

// Hex dumps with an offset column and a text column (`xxd`, `hexdump -C`): a held value's bytes
// are split into groups and lines there, and its text column shows it in 16-byte pieces, so
// the bytes of consecutive dump lines are read back and searched as one text.

/** The bytes of a run of dump lines (as Latin-1 characters), with each byte's hex position. */
export interface HexDumpRun {
  readonly text: string;
  /** `positions[i]`: where the hex digits of byte `i` start in the original text. */
  readonly positions: Int32Array;
  /** `lineEnds[i]`: the end of the dump line that holds byte `i` (its text column included). */
  readonly lineEnds: Int32Array;
}

/**
 * Reads one dump line starting at `start` (an offset of 7 or 8 hex digits, `:` or spaces, then
 * up to 16 bytes as hex in groups): appends its bytes and returns how many it had (0 when it is
 * not a dump line).
 */
function readLine(text: string, start: number, end: number, bytes: number[], positions: number[]): number {
  let cursor = start;
  while (cursor < end && cursor - start < 8 && hexDigit(text.charCodeAt(cursor)) >= 0) cursor++;
  if (cursor - start < 7) return 0;
  if (text.charCodeAt(cursor) === 58) cursor++;
  if (text.charCodeAt(cursor) !== 32) return 0;
  let count = 0;
  while (count < 16 && cursor < end) {
    // One or two spaces between groups (hexdump -C puts two after the eighth byte).
    let spaces = 0;
    while (spaces < 3 && text.charCodeAt(cursor) === 32) {
      cursor++;
      spaces++;
    }
    if (spaces === 0 || spaces > 2) break;
    const high = hexDigit(text.charCodeAt(cursor));
    const low = hexDigit(text.charCodeAt(cursor + 1));
    if (high < 0 || low < 0) break;
    // A group: pairs of hex digits up to the next space (xxd groups two bytes: `6865`).
    let group = cursor;
    const groupBytes: number[] = [];
    while (
      group + 1 < end &&
      hexDigit(text.charCodeAt(group)) >= 0 &&
      hexDigit(text.charCodeAt(group + 1)) >= 0
    ) {
      groupBytes.push(group);
      group += 2;
    }
    if (group < end && text.charCodeAt(group) !== 32) break; // not a group of whole bytes: the text column
    for (const at of groupBytes) {
      if (count === 16) break;
      bytes.push(hexDigit(text.charCodeAt(at)) * 16 + hexDigit(text.charCodeAt(at + 1)));
      positions.push(at);
      count++;
    }
    cursor = group;
  }
  return count;
}

const utf16 = new TextDecoder('utf-16le');

/** The bytes as a string of Latin-1 characters. */
function latin1(bytes: readonly number[]): string {
  return utf16.decode(Uint16Array.from(bytes));
}

/**
 * Where the dump line whose offset ends (with the `0` of a 16-byte line) at `zero` starts, or -1:
 * the offset has 7 or 8 hex digits and begins the line. Constant time.
 */
function dumpLineStart(text: string, zero: number): number {
  for (const digits of [8, 7]) {
    const start = zero - digits + 1;
    if (start < 0 || (start > 0 && text.charCodeAt(start - 1) !== 10)) continue;
    let hex = true;
    for (let i = start; i < zero && hex; i++) hex = hexDigit(text.charCodeAt(i)) >= 0;
    if (hex) return start;
  }
  return -1;
}

/**
 * Runs of consecutive dump lines read back to bytes. Dumps are found by the end of their line
 * offsets (`0: ` for xxd, `0  ` for hexdump -C: one native search for `0`, the two characters
 * after it compared here, which costs half of a search for each marker), and only their lines
 * are read, each once.
 */
export function hexDumpRuns(text: string): HexDumpRun[] {
  const starts: number[] = [];
  for (let hit = text.indexOf('0'); hit !== -1; hit = text.indexOf('0', hit + 1)) {
    const next = text.charCodeAt(hit + 1);
    if ((next !== 58 && next !== 32) || text.charCodeAt(hit + 2) !== 32) continue; // `0: ` or `0  `
    const start = dumpLineStart(text, hit);
    if (start !== -1) starts.push(start);
  }
  if (starts.length === 0) return [];
  starts.sort((a, b) => a - b);
  const runs: HexDumpRun[] = [];
  let scannedTo = 0;
  for (const first of starts) {
    if (first < scannedTo) continue;
    const bytes: number[] = [];
    const positions: number[] = [];
    const lineEnds: number[] = [];
    let start = first;
    while (start < text.length) {
      let newline = text.indexOf('\n', start);
      if (newline === -1) newline = text.length;
      const count = readLine(text, start, newline, bytes, positions);
      for (let i = lineEnds.length; i < bytes.length; i++) lineEnds.push(newline);
      start = newline + 1;
      if (count < 16) break; // not a dump line, or a short last line
    }
    scannedTo = start;
    if (bytes.length > 0)
      runs.push({
        text: latin1(bytes),
        positions: Int32Array.from(positions),
        lineEnds: Int32Array.from(lineEnds),
      });
  }
  return runs;
}
