/** Escapes words of text for markdown; `lineStart` says whether they start a line. */
export type EscapeWords = (words: string, lineStart: boolean) => string;

/** Markdown text escaped so that it shows as written. */
export function escapeMarkdown(words: string, lineStart: boolean): string {
  const escaped = words.replace(/[\\*`[\]]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\$&');
  if (!lineStart) return escaped;
  if (/^(?:#{1,6}|[-+=>]|[-+]{3,})$/.test(escaped)) return `\\${escaped}`;
  if (/^\d{1,9}[.)]$/.test(escaped)) return `${escaped.slice(0, -1)}\\${escaped.slice(-1)}`;
  return escaped;
}

/** Markdown text in a table cell: pipes escaped too. */
export function escapeCell(words: string, lineStart: boolean): string {
  return escapeMarkdown(words, lineStart).replaceAll('|', '\\|');
}

/**
 * `escapeWords` for a piece of a word cut in two: the first word it is given is escaped as if
 * `before` came right before it and `after` right after it (whether a `_` is escaped depends on
 * its neighbours), and the escapes of those neighbours are taken off again. A character at the
 * start or end of text is escaped exactly as it would be alone, which is what is taken off.
 */
export function escapeBetween(escapeWords: EscapeWords, before: string, after: string): EscapeWords {
  let first = true;
  return (words, lineStart) => {
    if (!first) return escapeWords(words, lineStart);
    first = false;
    const escaped = escapeWords(before + words + after, lineStart && before === '');
    const head = before === '' ? 0 : escapeWords(before, false).length;
    const tail = after === '' ? 0 : escapeWords(after, false).length;
    return escaped.slice(head, escaped.length - tail);
  };
}

/** A link target written inside `(...)`: spaces, parentheses and angle brackets encoded. */
export function linkTarget(url: string): string {
  return url.trim().replace(/[\s()<>]/g, (character) => encodeURIComponent(character));
}

/**
 * Longest link or image target shown, in characters. A longer one (megabytes of query string)
 * would cost a pass over it at a single tag, holding the thread; it is left out and the link
 * shown as its text. Browsers take URLs up to 2 MB, but no model uses one of 64 Ki characters.
 */
export const MAX_TARGET_CHARS = 65_536;

/** A URL worth showing: not empty, not script or data, not longer than {@link MAX_TARGET_CHARS}. */
export function showableUrl(url: string | undefined): string | undefined {
  if (url === undefined || url.length > MAX_TARGET_CHARS) return undefined;
  const trimmed = url.trim();
  if (trimmed === '' || /^(?:javascript|data|vbscript):/i.test(trimmed)) return undefined;
  return trimmed;
}
