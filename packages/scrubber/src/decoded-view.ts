import { hexDigit } from './hex-digit.js';
import { WIDE_TRIGGERS } from './scan/wide-triggers.js';

// A second reading of text as a terminal or a JSON/URL decoder would show it: terminal colour
// codes and invisible characters removed, escapes decoded, look-alike letters folded to ASCII.

/** The decoded text and, for each of its characters, the span of the original it came from. */
export interface DecodedView {
  readonly text: string;
  /** `starts[i]`: first original character of decoded character `i`. */
  readonly starts: Int32Array;
  /** `ends[i]`: one past the last original character of decoded character `i`. */
  readonly ends: Int32Array;
  /** The view starts inside a word: a match at its very start may be a piece of a longer word. */
  readonly openStart: boolean;
  /** The view ends inside a word: a match at its very end may be cut short. */
  readonly openEnd: boolean;
}

// What makes text worth a second reading: invisible and bidi-control characters, fullwidth,
// Cyrillic and Greek letters (`scan/wide-triggers.ts`; the one pass over the text notes where
// they are), and the literals of {@link LITERAL_TRIGGERS}.

/**
 * Characters found with `indexOf`, each confirmed where it is: an escape character (ANSI
 * colours), a soft hyphen, `\` of a JSON `\u00XX` escape or PHP's `\/`, `%` (a
 * percent-encoded `:`, `=`, `@`, `/`, `&` or `?`), and `&` of an HTML entity for quotes (JSON in an
 * HTML attribute: `{&quot;apiKey&quot;:...}`). One pass per character: a search for `&quot;`,
 * `&#` and `&apos;` in turn stops at every `&` three times.
 */
const LITERAL_TRIGGERS = ['\x1b', '\u00ad', '\\', '%', '&'];

/** Whether the trigger character at `index` really begins one (an escape of printable ASCII or ESC, a structural percent code, a quote entity). */
function confirms(text: string, index: number, literal: string): boolean {
  if (literal === '%') {
    const value = hexAt(text, index + 1, 2);
    return (
      value === 0x3a || value === 0x3d || value === 0x3f || value === 0x40 || value === 0x26 || value === 0x2f
    );
  }
  if (literal === '&') {
    if (text.charCodeAt(index + 1) === 35) return htmlEntity(text, index) !== undefined; // &#
    return text.startsWith('&quot;', index) || text.startsWith('&apos;', index);
  }
  if (literal === '\\') {
    if (text.charCodeAt(index + 1) === 47) return true; // \/
    if (!text.startsWith('\\u00', index)) return false;
    const value = hexAt(text, index + 2, 4);
    return (value >= 0x20 && value <= 0x7e) || value === 0x1b;
  }
  return true;
}

/** Where the characters of {@link WIDE_TRIGGERS} are in `text`: for a text the pass did not read. */
function wideTriggersOf(text: string): number[] {
  const positions: number[] = [];
  for (let index = 0; index < text.length; index++)
    if (WIDE_TRIGGERS[text.charCodeAt(index)] === 1) positions.push(index);
  return positions;
}

/** Sorted positions of everything that reads differently once decoded (`wide`: those of {@link WIDE_TRIGGERS}). */
function triggerPositions(text: string, wide: ArrayLike<number>): number[] {
  const positions: number[] = Array.from(wide);
  for (const literal of LITERAL_TRIGGERS) {
    for (let hit = text.indexOf(literal); hit !== -1; hit = text.indexOf(literal, hit + 1))
      if (confirms(text, hit, literal)) positions.push(hit);
  }
  return positions.sort((a, b) => a - b);
}

/** Characters a terminal does not show: zero-width, soft hyphen, bidi marks, embeddings and isolates. */
function isInvisible(code: number): boolean {
  return (
    code === 0xad ||
    code === 0x180e ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2064) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  );
}

/** Cyrillic and Greek letters drawn like Latin ones (the ones used to spell `password`, `token`, `key`...). */
const LOOK_ALIKES: ReadonlyMap<number, number> = new Map(
  [
    ['а', 'a'],
    ['е', 'e'],
    ['і', 'i'],
    ['ј', 'j'],
    ['о', 'o'],
    ['р', 'p'],
    ['с', 'c'],
    ['ѕ', 's'],
    ['у', 'y'],
    ['х', 'x'],
    ['ԁ', 'd'],
    ['һ', 'h'],
    ['ӏ', 'l'],
    ['ԛ', 'q'],
    ['ԝ', 'w'],
    ['к', 'k'],
    ['А', 'A'],
    ['В', 'B'],
    ['Е', 'E'],
    ['К', 'K'],
    ['М', 'M'],
    ['Н', 'H'],
    ['І', 'I'],
    ['Ј', 'J'],
    ['О', 'O'],
    ['Р', 'P'],
    ['С', 'C'],
    ['Ѕ', 'S'],
    ['Т', 'T'],
    ['У', 'Y'],
    ['Х', 'X'],
    ['Α', 'A'],
    ['Β', 'B'],
    ['Ε', 'E'],
    ['Ζ', 'Z'],
    ['Η', 'H'],
    ['Ι', 'I'],
    ['Κ', 'K'],
    ['Μ', 'M'],
    ['Ν', 'N'],
    ['Ο', 'O'],
    ['Ρ', 'P'],
    ['Τ', 'T'],
    ['Υ', 'Y'],
    ['Χ', 'X'],
    ['ο', 'o'],
    ['α', 'a'],
    ['ι', 'i'],
    ['κ', 'k'],
    ['ν', 'v'],
    ['ρ', 'p'],
  ].map(([from, to]) => [(from as string).charCodeAt(0), (to as string).charCodeAt(0)]),
);

/** The value of `digits` hex digits at `at`, or -1. */
function hexAt(text: string, at: number, digits: number): number {
  let value = 0;
  for (let i = 0; i < digits; i++) {
    const digit = hexDigit(text.charCodeAt(at + i));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** End of the ANSI sequence whose escape character ends at `from` (CSI `[` params final, or one more character). */
function escapeSequenceEnd(text: string, from: number): number {
  if (text.charCodeAt(from) !== 91) {
    const code = text.charCodeAt(from);
    return code >= 0x40 && code <= 0x5f ? from + 1 : from;
  }
  let cursor = from + 1;
  const limit = Math.min(text.length, cursor + 32);
  while (cursor < limit && text.charCodeAt(cursor) >= 0x20 && text.charCodeAt(cursor) <= 0x3f) cursor++;
  const final = text.charCodeAt(cursor);
  return final >= 0x40 && final <= 0x7e ? cursor + 1 : from;
}

const NAMED_ENTITIES: readonly [string, number][] = [
  ['&quot;', 34],
  ['&apos;', 39],
  ['&amp;', 38],
  ['&lt;', 60],
  ['&gt;', 62],
];

/** The printable ASCII character and length of the HTML entity at `index`, or undefined. */
function htmlEntity(text: string, index: number): { code: number; length: number } | undefined {
  for (const [name, code] of NAMED_ENTITIES)
    if (text.startsWith(name, index)) return { code, length: name.length };
  if (text.charCodeAt(index + 1) !== 35) return undefined;
  const hex = (text.charCodeAt(index + 2) | 0x20) === 120;
  let cursor = index + (hex ? 3 : 2);
  let code = 0;
  for (let digits = 0; digits < 4; digits++, cursor++) {
    const digit = hex ? hexDigit(text.charCodeAt(cursor)) : text.charCodeAt(cursor) - 48;
    if (digit < 0 || digit > (hex ? 15 : 9)) break;
    code = code * (hex ? 16 : 10) + digit;
  }
  if (text.charCodeAt(cursor) !== 59 || code < 0x20 || code > 0x7e || cursor === index + (hex ? 3 : 2))
    return undefined;
  return { code, length: cursor + 1 - index };
}

const utf16 = new TextDecoder('utf-16le');

/** Whether the character at `index` separates words (so a window may begin or end there). */
function isBreak(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code <= 32 || code === 34 || code === 39 || code === 44 || code === 59;
}

/** Moves `index` by `step` to a word break, at most 64 characters; stays put when there is none. */
function toBreak(text: string, index: number, step: 1 | -1): number {
  for (let cursor = index, moves = 0; moves < 64; moves++, cursor += step) {
    if (cursor <= 0 || cursor >= text.length) return Math.max(0, Math.min(text.length, cursor));
    if (isBreak(text, cursor)) return step < 0 ? cursor + 1 : cursor;
  }
  return index;
}

/**
 * Decoded views of the parts of `text` around what would read differently once decoded
 * (`reach` characters each side, widened to word breaks): the rest of the text is not copied
 * or scanned again. Linear: each step consumes at least one character and looks at most 64 ahead.
 * `wide` are the positions of the characters of {@link WIDE_TRIGGERS} when the pass noted them.
 */
export function decodedViews(text: string, reach: number, wide?: ArrayLike<number>): DecodedView[] {
  const views: DecodedView[] = [];
  const positions = triggerPositions(text, wide ?? wideTriggersOf(text));
  let index = 0;
  while (index < positions.length) {
    const first = positions[index] as number;
    let to = first + reach;
    // Merge the windows of triggers close together.
    while (index + 1 < positions.length && (positions[index + 1] as number) - reach <= to)
      to = (positions[++index] as number) + reach;
    index++;
    const from = toBreak(text, Math.max(0, first - reach), -1);
    views.push(decodeRange(text, from, toBreak(text, Math.min(text.length, to), 1)));
  }
  return views;
}

/** Decodes `text` from `from` to `to`. */
function decodeRange(text: string, from: number, to: number): DecodedView {
  const size = to - from;
  const codes = new Uint16Array(size);
  const starts = new Int32Array(size + 1);
  const ends = new Int32Array(size + 1);
  let length = 0;
  let index = from;
  while (index < to) {
    const code = text.charCodeAt(index);
    let decoded = code;
    let next = index + 1;
    if (code === 92) {
      const following = text.charCodeAt(index + 1);
      if (following === 117) {
        const value = hexAt(text, index + 2, 4);
        if ((value >= 0x20 && value <= 0x7e && value !== 92) || value === 0x1b) {
          decoded = value;
          next = index + 6;
        }
      } else if (following === 47) {
        decoded = 47;
        next = index + 2;
      } else if (following === 92) {
        // An escaped backslash: keep both, so `\\u0041` is not read as an escape.
        codes[length] = 92;
        starts[length] = index;
        ends[length++] = index + 1;
        index++;
        next = index + 1;
      }
    } else if (code === 37) {
      const value = hexAt(text, index + 1, 2);
      if (value > 0x20 && value <= 0x7e && value !== 37) {
        decoded = value;
        next = index + 3;
      }
    } else if (code === 38) {
      const entity = htmlEntity(text, index);
      if (entity !== undefined) {
        decoded = entity.code;
        next = index + entity.length;
      }
    } else if (code >= 0xff01 && code <= 0xff5e) {
      decoded = code - 0xfee0;
    } else if (code >= 0x80) {
      if (isInvisible(code)) {
        index = next;
        continue;
      }
      decoded = LOOK_ALIKES.get(code) ?? code;
    }
    if (decoded === 0x1b) {
      index = escapeSequenceEnd(text, next);
      continue;
    }
    codes[length] = decoded;
    starts[length] = index;
    ends[length++] = next;
    index = next;
  }
  return {
    text: utf16.decode(codes.subarray(0, length)),
    starts,
    ends,
    openStart: from > 0 && !isBreak(text, from - 1),
    openEnd: to < text.length && !isBreak(text, to),
  };
}
