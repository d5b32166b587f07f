// How shells print variables: the line prefixes of `export -p` and `declare -p`, bash's quoting in
// `set` and `declare` output ('...' with '\'' for a quote, $'...' for control characters), and
// the raw `NAME=value` lines of `env` and `printenv`.

const MAX_VALUE = 512;

/** Whether `word` (a shell builtin) ends just before `end`, after line start or blanks. */
function prefixWordAt(text: string, end: number, word: string): boolean {
  return text.startsWith(word, end - word.length);
}

/**
 * Where the prefix of `export -p`/`declare -p` output (`export `, `declare -x `, `declare -- `,
 * `typeset -rx `) begins, when one ends at `end` (the name's start); -1 when there is none.
 */
function declarationStart(text: string, end: number): number {
  let cursor = end;
  while (cursor > 0 && text.charCodeAt(cursor - 1) === 32) cursor--;
  if (prefixWordAt(text, cursor, 'export')) return cursor - 6;
  // Options of declare/typeset: `-x`, `-rx`, `--`, `-ax`...
  let option = cursor;
  while (option > 0 && end - option < 12 && /[a-zA-Z-]/.test(text.charAt(option - 1))) option--;
  if (option === cursor || text.charCodeAt(option) !== 45 || text.charCodeAt(option - 1) !== 32) return -1;
  let word = option - 1;
  while (word > 0 && text.charCodeAt(word - 1) === 32) word--;
  if (prefixWordAt(text, word, 'declare')) return word - 7;
  if (prefixWordAt(text, word, 'typeset')) return word - 7;
  return -1;
}

/**
 * Whether the key at `keyStart` begins a line (an .env file, YAML, a header block), also after
 * `export ` or `declare -x ` (shell output).
 */
export function startsLine(text: string, keyStart: number): boolean {
  let cursor = keyStart - 1;
  while (cursor >= 0 && keyStart - cursor < 40) {
    const code = text.charCodeAt(cursor);
    if (code === 10 || code === 13) return true;
    if (code !== 32 && code !== 9 && code !== 45) {
      const declaration = declarationStart(text, keyStart);
      return declaration >= 0 && declaration < keyStart && startsLine(text, declaration);
    }
    cursor--;
  }
  return cursor < 0;
}

/**
 * End of bash's ANSI-C quoted value (`$'a\nb'`) whose text starts at `start` (after `$'`): its
 * closing quote, past `\'` and other escapes; -1 when it does not close on the line.
 */
export function ansiQuotedEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && end - start <= MAX_VALUE) {
    const code = text.charCodeAt(end);
    if (code === 39) return end;
    if (code === 10 || code === 13) return -1;
    end += code === 92 ? 2 : 1;
  }
  return -1;
}

// How shells quote a quote inside '...': bash `'\''`, dash `'"'"'`.
const JOINERS = ["'\\''", `'"'"'`];

/**
 * The length of the joiner (`'\''` or `'"'"'`) at `at`; 0 when there is none; -1 when the text
 * ends inside what may be one.
 */
function joinerAt(text: string, at: number): number {
  for (const joiner of JOINERS) {
    if (text.startsWith(joiner, at)) return joiner.length;
    const rest = text.slice(at);
    if (rest.length > 1 && rest.length < joiner.length && joiner.startsWith(rest)) return -1;
  }
  return 0;
}

/**
 * End of a single-quoted value that bash joined around quotes (`'it'\''s'`): past each `'\''`
 * that follows the closing quote at `end`, to the last closing quote.
 */
export function joinedQuoteEnd(text: string, end: number): number {
  let close = end;
  for (let joiner = joinerAt(text, close); joiner > 0; joiner = joinerAt(text, close)) {
    const next = text.indexOf("'", close + joiner);
    if (next === -1 || next - end > MAX_VALUE) return close;
    const newline = text.indexOf('\n', close + joiner);
    if (newline !== -1 && newline < next) return close;
    close = next;
  }
  return close;
}

/** Whether the line starting at `start` begins with an environment name and `=` (`LANG=C`). */
function isNameLine(text: string, start: number): boolean {
  let cursor = start;
  const first = text.charCodeAt(cursor);
  if (!((first >= 65 && first <= 90) || first === 95)) return false;
  while (cursor - start < 64) {
    const code = text.charCodeAt(cursor);
    if (code === 61) return cursor > start;
    if (
      !(
        (code >= 65 && code <= 90) ||
        (code >= 97 && code <= 122) ||
        (code >= 48 && code <= 57) ||
        code === 95
      )
    )
      return false;
    cursor++;
  }
  return false;
}

/**
 * The end of the line holding the raw value at `start`, when the key at `keyStart` is a line of an
 * `env`/`printenv` dump: the line begins with the name, and the line before or after it is a
 * `NAME=` line too. `env` prints values raw, spaces and quotes included, so the whole rest of
 * the line is the value; -1 when this is not such a line.
 */
export function dumpLineEnd(text: string, keyStart: number, start: number): number {
  if (keyStart > 0 && text.charCodeAt(keyStart - 1) !== 10) return -1;
  let end = start;
  while (end < text.length && text.charCodeAt(end) !== 10) if (++end - start > MAX_VALUE) return -1;
  const after = end < text.length ? end + 1 : -1;
  // The line before, looked for within MAX_VALUE characters.
  let before = keyStart === 0 ? -1 : keyStart - 1;
  while (before > 0 && text.charCodeAt(before - 1) !== 10) if (keyStart - --before > MAX_VALUE) return -1;
  const neighbour =
    (after !== -1 && after < text.length && isNameLine(text, after)) ||
    (before !== -1 && isNameLine(text, before));
  return neighbour ? (text.charCodeAt(end - 1) === 13 ? end - 1 : end) : -1;
}

/** How far a quoted value that runs over lines may go before it is not taken for one. */
export const MAX_MULTILINE_VALUE = 4096;

/**
 * End of a quoted value of a shell dump that runs over lines (dash's `export -p` and `set`,
 * `set` in bash's POSIX mode: `NAME='line one` ... `last line'`; older bash's
 * `declare -x NAME="..."`), whose text starts at `start`: the closing quote, which ends its line.
 * `'\''` (single quotes) and backslash escapes (double quotes) do not close it. The text's length
 * when the text ends first (a stream's buffer, truncated output: the value is held or redacted to
 * the end); -1 when a quote is followed by more text on its line, or nothing closes it within
 * {@link MAX_MULTILINE_VALUE} characters.
 */
export function multiLineQuotedEnd(text: string, start: number, quote: number): number {
  const limit = Math.min(text.length, start + MAX_MULTILINE_VALUE + 1);
  let end = start;
  while (end < limit) {
    const code = text.charCodeAt(end);
    if (quote === 34 && code === 92) {
      end += 2;
      continue;
    }
    if (code === quote) {
      if (quote === 39) {
        const joiner = joinerAt(text, end);
        if (joiner > 0) {
          end += joiner;
          continue;
        }
        // A joiner cut by the end of the text: whether the value goes on is not known yet.
        if (joiner < 0) return text.length;
      }
      const after = text.charCodeAt(end + 1);
      return end + 1 >= text.length || after === 10 || after === 13 ? end : -1;
    }
    end++;
  }
  return end >= text.length && end - start <= MAX_MULTILINE_VALUE ? text.length : -1;
}
