import type { Carry } from '../types.js';
import {
  MAX_COLUMN,
  inMapping,
  lineAt,
  objectStart,
  skipBlanks,
  skipValue,
  stringEnd,
} from './manifest-syntax.js';

// A stream emits a long Secret in parts and keeps only a short text before its cut. So that the
// rest is still read as part of the Secret, the stream puts before it a few synthetic lines that
// reopen the object where the cut left it: its `kind`, the `data`/`stringData` member, and for a
// cut inside a value the key (and quote) that value belongs to. What the stream remembers is the
// object's shape, never its text: the memory stays bounded whatever the size of the Secret.

/** How far back an object is looked for (a Secret holds at most 1 MiB). */
const MAX_SCAN = 1 << 20;
/** Anchors met before giving up (a text of thousands of false `kind: Secret` is not walked through). */
const MAX_TRIES = 64;
const MEMBERS: ReadonlySet<string> = new Set(['data', 'stringData']);
const YAML_ANCHOR = 'kind: Secret';
const JSON_ANCHORS = ['"kind":"Secret"', '"kind": "Secret"'];

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * A place at or before `at` (and after `floor`) where a value can be cut: between two characters
 * that are not blanks (a reader skips blanks after a key, so a continuation must not start with
 * one) and not after a backslash (a JSON escape must stay whole). -1 when there is none.
 */
function valueCut(text: string, at: number, floor: number): number {
  let cut = at;
  while (
    cut > floor &&
    (isBlank(text.charCodeAt(cut)) || isBlank(text.charCodeAt(cut - 1)) || text.charCodeAt(cut - 1) === 92)
  )
    cut--;
  return cut > floor || (cut === floor && !isBlank(text.charCodeAt(cut)) && text.charCodeAt(cut - 1) !== 92)
    ? cut
    : -1;
}

// ---- YAML -------------------------------------------------------------------------------------

/**
 * The last start at or before `from` (and at or after `low`) of one of `literals` in `text`: taken
 * from `anchors` (the starts of the rule's anchors, ascending) when the scan gave them, else
 * searched back in `window` (`text` from `low`).
 */
function lastBefore(
  text: string,
  window: string,
  low: number,
  from: number,
  literals: readonly string[],
  anchors: Int32Array | undefined,
): number {
  if (from < low) return -1;
  if (anchors === undefined) {
    let best = -1;
    for (const literal of literals) {
      const found = window.lastIndexOf(literal, from - low);
      if (found !== -1) best = Math.max(best, found + low);
    }
    return best;
  }
  // The last anchor start at or before `from` (binary search), then back to one of `literals`.
  let lo = 0;
  let hi = anchors.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((anchors[mid] as number) <= from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0; i--) {
    const start = anchors[i] as number;
    if (start < low) return -1;
    for (const literal of literals) if (text.startsWith(literal, start)) return start;
  }
  return -1;
}

/** The `kind: Secret` line of the object `at` may be in: an anchor that begins its line's key. */
function yamlAnchor(text: string, at: number, anchors: Int32Array | undefined): number {
  const floor = at - MAX_SCAN;
  // Searched in the last MAX_SCAN characters only (an anchor further back is refused anyway), not
  // back to the start of a large text.
  const low = Math.max(0, floor + 1);
  const window =
    anchors === undefined ? text.slice(low, Math.min(text.length, at - 1 + YAML_ANCHOR.length)) : '';
  const before = (from: number): number => lastBefore(text, window, low, from, [YAML_ANCHOR], anchors);
  let anchor = before(at - 1);
  for (let tries = 0; anchor !== -1 && anchor > floor && tries < MAX_TRIES; tries++) {
    const lineStart = text.lastIndexOf('\n', anchor - 1) + 1;
    const line = lineAt(text, lineStart);
    const rest = text.slice(anchor + YAML_ANCHOR.length, line.end).trim();
    if (line.start + line.key === anchor && line.key <= MAX_COLUMN && (rest === '' || rest.startsWith('#')))
      return anchor;
    anchor = before(anchor - 1);
  }
  return -1;
}

/**
 * For an object at column 0 (every line belongs to it but a `---` separator): -1 when a separator
 * ends it before the line `at` is in, else where the walk to `at` can begin, the last key line at
 * column 0 before that line (what member is open depends on it and the lines after it only), or
 * the line `at` is in when there is none. So a stream that carries a Secret at column 0 across
 * many writes does not walk its whole buffer at each cut.
 */
function topLevelResume(text: string, ownEnd: number, at: number): number {
  const cutLine = text.lastIndexOf('\n', at - 1) + 1;
  // Searched up to the cut line only (a view of the text, not a copy).
  if (text.slice(ownEnd, cutLine).includes('\n---')) return -1;
  for (let start = cutLine; start > ownEnd + 1; ) {
    start = text.lastIndexOf('\n', start - 2) + 1;
    const line = lineAt(text, start);
    if (line.key === 0 && !line.empty) return start;
  }
  return cutLine;
}

function yamlCarry(
  text: string,
  at: number,
  maxBack: number,
  known: number,
  anchors: Int32Array | undefined,
): Carry | undefined {
  const anchor = known !== -1 ? known : yamlAnchor(text, at, anchors);
  if (anchor === -1) return undefined;
  const own = lineAt(text, text.lastIndexOf('\n', anchor - 1) + 1);
  if (own.end >= at) return undefined;
  const column = own.key;
  const indent = (width: number): string => ' '.repeat(width);
  let member: string | undefined;
  let entryColumn = -1;
  let block: string | undefined; // the key line of an entry whose block scalar is open
  let cursor = column === 0 ? topLevelResume(text, own.end, at) : own.end + 1;
  if (cursor === -1) return undefined;
  let line = lineAt(text, cursor);
  // Over the whole lines before the one `at` is in: what member and entry they leave open.
  while (line.end < at) {
    if (!inMapping(line, column, text)) return undefined;
    if (!line.empty || block !== undefined) {
      if (line.key === column && !line.empty) {
        const keyStart = line.start + line.key;
        const colon = text.indexOf(':', keyStart);
        const key = colon === -1 || colon > line.end ? '' : text.slice(keyStart, colon);
        member = MEMBERS.has(key) && text.slice(colon + 1, line.end).trim() === '' ? key : undefined;
        entryColumn = -1;
        block = undefined;
      } else if (member !== undefined && !line.empty) {
        if (entryColumn === -1) entryColumn = line.key;
        if (line.key <= entryColumn) block = undefined;
        if (line.key === entryColumn && !line.item) {
          const keyStart = line.start + line.key;
          const colon = text.indexOf(': ', keyStart);
          const first = colon === -1 || colon > line.end ? -1 : text.charCodeAt(skipInline(text, colon + 1));
          block = first === 124 || first === 62 ? entryKey(text, keyStart, colon) : undefined;
        }
      }
    }
    cursor = line.end + 1;
    line = lineAt(text, cursor);
  }
  let prefix = `${indent(column)}${YAML_ANCHOR}\n`;
  if (member !== undefined) prefix += `${indent(column)}${member}:\n`;
  const lineStart = line.start;
  if (text.slice(lineStart, at).trim() === '') {
    if (member !== undefined && block !== undefined) prefix += `${indent(entryColumn)}${block}: |\n`;
    return { prefix, from: lineStart, inValue: false };
  }
  if (member !== undefined && !line.empty) {
    const floor = Math.max(lineStart, at - maxBack);
    if (block !== undefined && line.key > entryColumn) {
      // Inside a block scalar's line: a cut there continues the value on a line of its own.
      const from = valueCut(text, at, Math.max(floor, lineStart + line.key));
      if (from !== -1)
        return {
          prefix: `${prefix}${indent(entryColumn)}${block}: |\n${indent(line.key)}`,
          from,
          inValue: true,
        };
    } else if (line.key === (entryColumn === -1 ? line.key : entryColumn) && !line.item) {
      const keyStart = lineStart + line.key;
      const colon = text.indexOf(': ', keyStart);
      if (colon !== -1 && colon < at) {
        const valueStart = skipInline(text, colon + 1);
        const quote = text.charCodeAt(valueStart);
        const quoted = quote === 34 || quote === 39;
        const closed = quoted && text.slice(valueStart + 1, at).includes(String.fromCharCode(quote));
        const comment = !quoted && text.slice(valueStart, at + 1).includes(' #');
        if (valueStart < at && quote !== 124 && quote !== 62 && !closed && !comment) {
          const from = valueCut(text, at, Math.max(floor, valueStart + (quoted ? 1 : 0)));
          const open = quoted ? String.fromCharCode(quote) : '';
          if (from !== -1)
            return {
              prefix: `${prefix}${indent(line.key)}${entryKey(text, keyStart, colon)}: ${open}`,
              from,
              inValue: true,
            };
        }
      }
    }
  }
  return at - lineStart <= maxBack ? { prefix, from: lineStart, inValue: false } : undefined;
}

function skipInline(text: string, from: number): number {
  let at = from;
  while (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 9) at++;
  return at;
}

/** The entry's key as written, or a stand-in when it is too long to repeat. */
function entryKey(text: string, keyStart: number, colon: number): string {
  return colon - keyStart <= 256 ? text.slice(keyStart, colon) : 'value';
}

// ---- JSON -------------------------------------------------------------------------------------

function jsonAnchor(text: string, at: number, anchors: Int32Array | undefined): number {
  // Only the last MAX_SCAN characters can hold an anchor that counts: the search stays in them.
  const low = Math.max(0, at - MAX_SCAN + 1);
  const window = anchors === undefined ? text.slice(low) : '';
  const best = lastBefore(text, window, low, at - 1, JSON_ANCHORS, anchors);
  return best !== -1 && at - best < MAX_SCAN ? best : -1;
}

/** A member value of a string opened at `open` that `at` lies in: a carry that reopens it. */
function inString(
  text: string,
  at: number,
  floor: number,
  prefix: string,
  inValue: boolean,
): Carry | undefined {
  const from = valueCut(text, at, floor);
  return from === -1 ? undefined : { prefix: `${prefix}"":"`, from, inValue };
}

function jsonCarry(
  text: string,
  at: number,
  maxBack: number,
  known: number,
  anchors: Int32Array | undefined,
): Carry | undefined {
  const anchor = known !== -1 ? known : jsonAnchor(text, at, anchors);
  if (anchor === -1) return undefined;
  const open = objectStart(text, anchor, MAX_SCAN);
  if (open === -1) return undefined;
  const floor = at - maxBack;
  const secret = '{"kind":"Secret"';
  // `clean` is a place the text can resume after `prefix` (after a member, or after the `{`).
  let clean: Carry = { prefix: `${secret},`, from: open + 1, inValue: false };
  let cursor = skipBlanks(text, open + 1);
  while (cursor < at) {
    if (text.charCodeAt(cursor) !== 34) return undefined;
    const keyEnd = stringEnd(text, cursor, text.length);
    if (keyEnd === -1 || keyEnd >= at) break;
    const colon = skipBlanks(text, keyEnd + 1);
    if (text.charCodeAt(colon) !== 58) return undefined;
    const value = skipBlanks(text, colon + 1);
    if (value >= at) break;
    const key = text.slice(cursor + 1, keyEnd);
    let end: number;
    if (MEMBERS.has(key) && text.charCodeAt(value) === 123) {
      const inner = `${secret},"${key}":{`;
      let innerClean: Carry = { prefix: inner, from: value + 1, inValue: false };
      let item = skipBlanks(text, value + 1);
      end = -1;
      while (item < at) {
        const code = text.charCodeAt(item);
        if (code === 125) {
          end = item + 1;
          break;
        }
        if (code !== 34) return undefined;
        const itemKeyEnd = stringEnd(text, item, text.length);
        if (itemKeyEnd === -1 || itemKeyEnd >= at) break;
        const itemColon = skipBlanks(text, itemKeyEnd + 1);
        if (text.charCodeAt(itemColon) !== 58) return undefined;
        const itemValue = skipBlanks(text, itemColon + 1);
        if (itemValue >= at) break;
        const close =
          text.charCodeAt(itemValue) === 34
            ? stringEnd(text, itemValue, text.length)
            : skipValue(text, itemValue, text.length) - 1;
        if (close === -1 || close >= at) {
          if (text.charCodeAt(itemValue) !== 34) break;
          return (
            inString(text, at, Math.max(floor, itemValue + 1), inner, true) ??
            (innerClean.from >= floor ? innerClean : undefined)
          );
        }
        innerClean = { prefix: `${inner}"":""`, from: close + 1, inValue: false };
        item = skipBlanks(text, close + 1);
        if (text.charCodeAt(item) === 44) item = skipBlanks(text, item + 1);
      }
      if (end === -1) return innerClean.from >= floor ? innerClean : undefined;
    } else {
      end =
        text.charCodeAt(value) === 34
          ? stringEnd(text, value, text.length) + 1
          : skipValue(text, value, text.length);
      if (end <= 0 || end > at) {
        if (text.charCodeAt(value) === 34)
          return (
            inString(text, at, Math.max(floor, value + 1), `${secret},`, false) ??
            (clean.from >= floor ? clean : undefined)
          );
        break;
      }
    }
    clean = { prefix: secret, from: end, inValue: false };
    cursor = skipBlanks(text, end);
    if (text.charCodeAt(cursor) === 125 && cursor < at) return undefined; // the object closed before `at`
    if (text.charCodeAt(cursor) === 44) cursor = skipBlanks(text, cursor + 1);
  }
  return clean.from >= floor ? clean : undefined;
}

/**
 * A carry for a stream cut at `at` inside a Kubernetes Secret that began before it (YAML with
 * `kind: Secret` before the cut, or JSON with `"kind":"Secret"` before it); `undefined` when `at`
 * is in no such object. `known` names the anchor of an object the scan read around `at`, if any
 * (else the anchor is searched back, at most 64 of them: among `anchors`, the starts of the
 * rule's anchors in `text`, when the scan gave them, else in the text).
 */
export function manifestCarry(
  text: string,
  at: number,
  maxBack: number,
  known: { readonly yaml?: number; readonly json?: number } = {},
  anchors?: Int32Array,
): Carry | undefined {
  const yaml = yamlCarry(text, at, maxBack, known.yaml ?? -1, anchors);
  const json = jsonCarry(text, at, maxBack, known.json ?? -1, anchors);
  if (yaml === undefined) return json;
  if (json === undefined) return yaml;
  return json.from >= yaml.from ? json : yaml;
}
