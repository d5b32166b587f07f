import { isPlaceholder } from '../placeholder.js';
import { isBlank, isQuote, isWhitespace } from './characters.js';

// Reading one argument of a command line as it appears in command text, `bash -x` traces,
// JSON strings and argument lists: shared by the curl and command-line credential rules.

/** Where an argument's text begins and how it is quoted. */
export interface ArgumentStart {
  /** First character of the argument's text (after any opening quote). */
  readonly start: number;
  /** The opening quote's character code, 0 when unquoted. */
  readonly quote: number;
  /** The opening quote was escaped (`\"` inside a JSON string). */
  readonly escapedQuote: boolean;
}

/**
 * Steps from `cursor` (just after an option) over blanks, or the quotes and comma of an argument
 * list (`'-u', 'user:pass'`), to where the next argument's text begins.
 */
export function argumentAfter(text: string, cursor: number): ArgumentStart {
  let quote = 0;
  let escapedQuote = false;
  for (let steps = 0; steps < 8 && cursor < text.length; steps++) {
    const code = text.charCodeAt(cursor);
    if (isBlank(code) || code === 44 || code === 0)
      quote = 0; // NUL: arguments in /proc/<pid>/cmdline
    else if (isQuote(code)) {
      quote = code;
      escapedQuote = text.charCodeAt(cursor - 1) === 92;
    } else if (!(code === 92 && isQuote(text.charCodeAt(cursor + 1)))) break;
    cursor++;
  }
  return { start: cursor, quote, escapedQuote };
}

/**
 * Where the argument that begins at `from` ends: at a line break (or the backslash that continues
 * the line) or a NUL, at its closing quote (or the first blank or quote when unquoted), or at a
 * `\"` that ends a JSON-escaped argument. Undefined
 * when a quoted argument is not closed within `maxLength` characters.
 */
export function argumentEnd(
  text: string,
  from: number,
  argument: ArgumentStart,
  maxLength: number,
): number | undefined {
  const { quote, escapedQuote } = argument;
  let end = from;
  while (end < text.length && end - from <= maxLength) {
    const code = text.charCodeAt(end);
    if (code === 10 || code === 13 || code === 0) break;
    // A backslash before a line break continues the command; it is no part of the argument.
    if (code === 92 && quote === 0 && (text.charCodeAt(end + 1) === 10 || text.charCodeAt(end + 1) === 13))
      break;
    if (quote === 0 ? isWhitespace(code) || isQuote(code) : code === quote) break;
    if (code === 92 && (quote === 0 || escapedQuote) && isQuote(text.charCodeAt(end + 1))) break; // `\"` ends a JSON-escaped argument
    if (code === 92 && quote === 34) end++; // an escaped character inside double quotes
    end++;
  }
  if (quote !== 0 && text.charCodeAt(end) !== quote && text.charCodeAt(end) !== 92) return undefined;
  if (end - from > maxLength) return undefined;
  return end;
}

/** `(` `)` `<` `>` `|` `;` `&`: shell syntax, not the first character of an unquoted argument. */
export function isShellSyntax(code: number): boolean {
  return (
    code === 40 || code === 41 || code === 60 || code === 62 || code === 124 || code === 59 || code === 38
  );
}

/**
 * A placeholder argument (`$PASSWORD`, `SECRET`, `password`), also with the punctuation of a
 * sentence after it (`-pSECRET,` in prose).
 */
export function isPlaceholderArgument(value: string): boolean {
  let end = value.length;
  while (end > 1 && ',.;:)'.includes(value.charAt(end - 1))) end--;
  return isPlaceholder(value.slice(0, end));
}
