import { hexDigit } from './hex-digit.js';

// Percent-encoded text decoded for the exact-value search: an encoder that escapes every byte
// (`%61%62...`), lower-case escapes (`%2f`), or RFC 3986 encoders (curl, Python's quote) that
// escape more than `encodeURIComponent` would otherwise hide a held value from its variants.

/** A run of URL text that holds percent escapes, decoded, with each decoded character's span. */
export interface PercentRun {
  readonly text: string;
  /** `starts[i]`: first original character of decoded character `i`. */
  readonly starts: Int32Array;
  /** `ends[i]`: one past the last original character of decoded character `i`. */
  readonly ends: Int32Array;
}

/** The byte of the escape `%XX` at `index`, or -1. */
function escapeAt(text: string, index: number): number {
  if (text.charCodeAt(index) !== 37) return -1;
  const high = hexDigit(text.charCodeAt(index + 1));
  const low = hexDigit(text.charCodeAt(index + 2));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/** Characters a URL run may hold besides escapes: printable ASCII but space, quotes, `\`, `<>{}|^` and the backtick. */
function isUrlCode(code: number): boolean {
  return (
    code > 32 &&
    code < 127 &&
    code !== 34 &&
    code !== 39 &&
    code !== 92 &&
    code !== 96 &&
    code !== 60 &&
    code !== 62 &&
    code !== 123 &&
    code !== 125 &&
    code !== 124 &&
    code !== 94
  );
}

/**
 * The runs of URL characters around percent escapes, decoded (escapes to their byte as a
 * Latin-1 character, `+` to a space), for runs whose decoded text is at least `minLength`
 * characters long. Linear: every character belongs to at most one run and is read at most twice.
 */
export function percentRuns(text: string, minLength: number): PercentRun[] {
  const runs: PercentRun[] = [];
  let scannedTo = 0;
  for (let hit = text.indexOf('%'); hit !== -1; hit = text.indexOf('%', Math.max(hit + 1, scannedTo))) {
    if (escapeAt(text, hit) < 0) continue;
    let start = hit;
    while (start > scannedTo && isUrlCode(text.charCodeAt(start - 1))) start--;
    let end = hit;
    while (end < text.length && isUrlCode(text.charCodeAt(end))) end++;
    scannedTo = end;
    if (end - start < minLength) continue;
    runs.push(decodeRun(text, start, end));
  }
  return runs;
}

function decodeRun(text: string, start: number, end: number): PercentRun {
  const size = end - start;
  const codes = new Uint16Array(size);
  const starts = new Int32Array(size);
  const ends = new Int32Array(size);
  let length = 0;
  for (let index = start; index < end; ) {
    const byte = escapeAt(text, index);
    const code = text.charCodeAt(index);
    const next = byte >= 0 ? index + 3 : index + 1;
    codes[length] = byte >= 0 ? byte : code === 43 ? 32 : code;
    starts[length] = index;
    ends[length++] = next;
    index = next;
  }
  return {
    text: utf16.decode(codes.subarray(0, length)),
    starts: starts.subarray(0, length),
    ends: ends.subarray(0, length),
  };
}

const utf16 = new TextDecoder('utf-16le');
