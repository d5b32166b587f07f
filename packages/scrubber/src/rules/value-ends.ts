import { isQuote } from './characters.js';

// Where the value of an assignment ends (or, after a line break, begins): the readers the
// assignment rule runs after it has found a credential key.

/** The longest value the assignment rule takes. */
const MAX_VALUE = 512;
/** Line breaks and indentation read over between a key and its value on the next line. */
export const MAX_WRAP = 64;

// An unquoted value runs until whitespace, a quote, or punctuation that closes an expression
// (`,;)]}([\`, and `&` in a URL query); a sticky regex finds its end at native speed. `<` ends it
// only before a tag or a type (`</td>`, `Promise<string>`, `<%`) and `>` only before a blank, a
// quote, `<` or the end: a generated password may hold either.
const UNQUOTED = /(?:[^\s"'`,;)\]}<>([\\]|<(?![A-Za-z/!?%])|>(?![\s<"'`]|$)){0,513}/y;
const UNQUOTED_IN_QUERY = /(?:[^\s"'`,;)\]}<>([\\&]|<(?![A-Za-z/!?%])|>(?![\s<"'`]|$)){0,513}/y;

/** The regexes of this module (checked for linear time by the regex safety test). */
export const UNQUOTED_PATTERNS: readonly RegExp[] = [UNQUOTED, UNQUOTED_IN_QUERY];

/** End of the unquoted value starting at `start` (at most {@link MAX_VALUE} + 1 characters on). */
export function unquotedEnd(text: string, start: number, inQuery: boolean, limit = text.length): number {
  const pattern = inQuery ? UNQUOTED_IN_QUERY : UNQUOTED;
  pattern.lastIndex = start;
  pattern.test(text);
  return Math.min(pattern.lastIndex, limit);
}

/**
 * A pretty-printer or a narrow terminal may break the line between `"key":` and its value: the
 * quote of a value after line breaks and indentation (at most {@link MAX_WRAP} characters), or
 * `from` (the line break, which no value begins with) when something else follows.
 */
export function wrappedValueStart(text: string, from: number): number {
  let cursor = from;
  while (cursor < text.length && cursor - from < MAX_WRAP) {
    const code = text.charCodeAt(cursor);
    if (code !== 10 && code !== 13 && code !== 32 && code !== 9) break;
    cursor++;
  }
  const quote = text.charCodeAt(cursor);
  return quote === 34 || quote === 39 ? cursor : from;
}

/** The end of the run of characters other than blanks and quotes at `from` (at most {@link MAX_VALUE} + 1 on). */
export function wordEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && end - from <= MAX_VALUE) {
    const code = text.charCodeAt(end);
    if (code === 32 || code === 9 || code === 10 || code === 13 || isQuote(code)) break;
    end++;
  }
  return end;
}

/** The longest run of backslashes before a quote read as JSON escapes (five levels deep: 31). */
export const MAX_ESCAPES = 31;

/**
 * At a run of backslashes followed by a quote (a JSON string inside a JSON string, at any depth:
 * `\\"`, `\\\\\\"`...), the quote; otherwise `start`.
 */
export function escapedQuoteStart(text: string, start: number): number {
  let cursor = start;
  while (cursor - start < MAX_ESCAPES && text.charCodeAt(cursor) === 92) cursor++;
  return cursor > start && isQuote(text.charCodeAt(cursor)) ? cursor : start;
}

/**
 * Where the quoted value whose text starts at `start` ends: at its closing `quote`, a line break,
 * or after {@link MAX_VALUE} + 1 characters.
 */
export function quotedEnd(text: string, start: number, quote: number): number {
  // Opened by `\"` (JSON inside a JSON string), the value is closed by `\"`, and a quote inside
  // it reads `\\\"`; opened by a bare quote, `\"` is a quote inside it. Deeper, the value is
  // closed by as many backslashes as opened it (`\\\"` three levels deep), and more escape a quote.
  let escapes = 0;
  while (escapes < MAX_ESCAPES && text.charCodeAt(start - 2 - escapes) === 92) escapes++;
  let end = start;
  while (end < text.length && end - start <= MAX_VALUE) {
    const code = text.charCodeAt(end);
    if (code === quote || code === 10 || code === 13) break;
    if (code === 92) {
      let run = 1; // backslashes in a row
      while (run < 2 * MAX_ESCAPES + 2 && text.charCodeAt(end + run) === 92) run++;
      if (text.charCodeAt(end + run) === quote && (escapes > 0 ? run === escapes : run % 2 === 0)) {
        if (escapes > 0) break; // \" closes a JSON-escaped string
        end += run; // escaped backslashes, then the closing quote
        break;
      }
      end += run + 1;
      continue;
    }
    end++;
  }
  return end;
}

/**
 * Where the ODBC braced value whose text starts at `start` (after `{`) ends: its closing `}` (a
 * `}}` is a brace inside it), followed by `;`, a quote, a line break or the end (not a blank:
 * JSX's `token={token} />`); undefined for a template (`{{ ... }}`), a line break, or no such brace within {@link MAX_VALUE} characters.
 */
export function bracedEnd(text: string, start: number): number | undefined {
  if (text.charCodeAt(start) === 123) return undefined;
  let end = start;
  while (end < text.length && end - start <= MAX_VALUE) {
    const code = text.charCodeAt(end);
    if (code === 10 || code === 13) return undefined;
    if (code === 125) {
      if (text.charCodeAt(end + 1) === 125) {
        end += 2;
        continue;
      }
      const after = end + 1 < text.length ? text.charCodeAt(end + 1) : 59;
      return after === 59 || isQuote(after) || after === 10 || after === 13 ? end : undefined;
    }
    end++;
  }
  return undefined;
}
