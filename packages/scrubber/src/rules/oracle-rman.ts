import type { RuleMatch } from '../types.js';
import { isPlaceholderArgument } from './arguments.js';
import { registerMemo } from './memos.js';
import { MAX_PART, MIN_PASSWORD, endsArgument, endsPassword, isUserCode } from './oracle-words.js';

// RMAN takes its logons after connection keywords, several on one line:
// `rman target sys/PASSWORD catalog rco/PASSWORD@catdb`, `rman TARGET=sys/PASSWORD`, with a
// database or without one (the local instance): the keyword, not the `@`, makes the word a logon.

const KEYWORDS: ReadonlySet<string> = new Set(['target', 'catalog', 'auxiliary']);
/** How far after `rman` the line is read for keywords. */
const MAX_LINE = 1024;

/** Blanks, quotes and argument-list punctuation between the words of a command line. */
function separates(code: number): boolean {
  return code <= 32 || code === 34 || code === 39 || code === 44 || code === 91 || code === 93;
}

/**
 * What may follow a password: the argument's end, or `@` and a database (the `@` reader finds the
 * first logon of a line too, but not one after another logon: `catalog rco/PASSWORD@catdb`).
 */
function endsLogonPassword(code: number): boolean {
  return code === 64 || endsArgument(code);
}

/** The password span of the logon `user/password[@db]` at `at`. */
function logonAt(text: string, at: number, limit: number): RuleMatch | undefined {
  let slash = at;
  if (text.charCodeAt(slash) === 34) {
    const close = text.indexOf('"', slash + 1);
    if (close === -1 || close - slash > MAX_PART || close >= limit) return undefined;
    slash = close + 1;
  } else while (slash - at < MAX_PART && isUserCode(text.charCodeAt(slash))) slash++;
  if (slash === at || text.charCodeAt(slash) !== 47) return undefined;
  let start = slash + 1;
  let end: number;
  if (text.charCodeAt(start) === 34) {
    end = text.indexOf('"', start + 1);
    if (end === -1 || end - start > MAX_PART || end >= limit) return undefined;
    start++;
    if (!endsLogonPassword(text.charCodeAt(end + 1))) return undefined;
  } else {
    end = start;
    while (end - start < MAX_PART && end < limit && !endsPassword(text.charCodeAt(end))) end++;
    // A second `/`: a path.
    if (!endsLogonPassword(text.charCodeAt(end))) return undefined;
  }
  if (end - start < MIN_PASSWORD || isPlaceholderArgument(text.slice(start, end))) return undefined;
  return { start, end, kind: 'password' };
}

/**
 * The stretch the last read covered: a later `rman` inside it was read with it (`rman ` repeated
 * 50,000 times on one line made each read 1 KB of the line again: 0.9 s for 256 KB).
 */
let last: { text: string; anchor: number; until: number } | undefined;
registerMemo(() => {
  last = undefined;
});

/** At `rman`: the password of every logon after `target`, `catalog` or `auxiliary` on its line. */
export function rmanLogons(text: string, anchor: number): RuleMatch[] | undefined {
  // A scan meets anchors in increasing order: a smaller one is a new scan.
  if (last !== undefined && last.text === text && anchor > last.anchor && anchor < last.until)
    return undefined;
  const previous = text.charCodeAt(anchor - 1);
  if (anchor > 0 && (isUserCode(previous) || previous === 45 || previous === 46)) return undefined;
  let cursor = anchor + 4;
  if (text.startsWith('.exe', cursor)) cursor += 4;
  if (!endsArgument(text.charCodeAt(cursor))) return undefined;
  const newline = text.indexOf('\n', cursor);
  const limit = Math.min(newline === -1 ? text.length : newline, cursor + MAX_LINE);
  last = { text, anchor, until: limit };
  const out: RuleMatch[] = [];
  let logonNext = false;
  while (cursor < limit) {
    while (cursor < limit && separates(text.charCodeAt(cursor)) && text.charCodeAt(cursor) !== 34) cursor++;
    if (cursor >= limit) break;
    if (logonNext) {
      logonNext = false;
      const found = logonAt(text, cursor, limit);
      if (found !== undefined) {
        out.push(found);
        cursor = found.end + 1;
        continue;
      }
    }
    let wordEnd = cursor + 1;
    while (wordEnd < limit && !separates(text.charCodeAt(wordEnd)) && text.charCodeAt(wordEnd) !== 61)
      wordEnd++;
    const word = text.slice(text.charCodeAt(cursor) === 34 ? cursor + 1 : cursor, wordEnd).toLowerCase();
    if (KEYWORDS.has(word)) {
      logonNext = true;
      if (text.charCodeAt(wordEnd) === 61) wordEnd++;
    }
    cursor = wordEnd;
  }
  return out.length > 0 ? out : undefined;
}
