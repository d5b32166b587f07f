import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { isBlank, isQuote, isWhitespace } from './characters.js';

// `.netrc` / `_netrc` entries (`machine host login user password secret`, one line or spread
// over several, and the `default` entry). The rule is anchored on the keyword `password` and
// looks back for the entry it belongs to, at most LOOKBACK characters: a stream keeps 256
// characters of emitted text as context, so a stream finds what a one-shot scan finds.

const LOOKBACK = 240;
const MAX_VALUE = 512;

const NETRC_KEYWORDS: ReadonlySet<string> = new Set([
  'machine',
  'default',
  'login',
  'password',
  'account',
  'port',
  'macdef',
]);

function isEscapedSpace(code: number): boolean {
  return code === 110 || code === 114 || code === 116; // n r t of \n \r \t
}

/**
 * Length of the separator that ends at `end`: whitespace, or a JSON-escaped `\n`, `\r`, `\t`
 * (a netrc file inside a JSON string, as a tool's structured result carries it); 0 for none.
 */
function separatorBefore(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  if (isWhitespace(code)) return 1;
  return isEscapedSpace(code) && text.charCodeAt(end - 2) === 92 ? 2 : 0;
}

/** Length of the separator that starts at `start` (see {@link separatorBefore}). */
function separatorAt(text: string, start: number): number {
  const code = text.charCodeAt(start);
  if (isWhitespace(code)) return 1;
  return code === 92 && isEscapedSpace(text.charCodeAt(start + 1)) ? 2 : 0;
}

/** The token that ends before `end` (separators skipped), within `[limit, end)`. */
function previousToken(text: string, end: number, limit: number): { start: number; end: number } | undefined {
  let cursor = end;
  for (let size = separatorBefore(text, cursor); size > 0 && cursor - size >= limit; ) {
    cursor -= size;
    size = separatorBefore(text, cursor);
  }
  const tokenEnd = cursor;
  // A quote ends a token too: `echo "machine ...`, `{"content":"machine ...`.
  while (cursor > limit && separatorBefore(text, cursor) === 0 && !isQuote(text.charCodeAt(cursor - 1)))
    cursor--;
  if (cursor === tokenEnd || (cursor === limit && limit > 0)) return undefined;
  return { start: cursor, end: tokenEnd };
}

/**
 * Whether the netrc entry keyword at `start` begins an entry: first on its line (or after an
 * opening quote, as in `echo "machine ..."`), or after a complete `keyword value` pair of the
 * entry before it on the same line.
 */
function beginsEntry(text: string, start: number, limit: number): boolean {
  let cursor = start;
  while (cursor > limit && isBlank(text.charCodeAt(cursor - 1))) cursor--;
  const previous = cursor > 0 ? text.charCodeAt(cursor - 1) : 10;
  if (previous === 10 || previous === 13 || previous === 34 || previous === 39) return true;
  if (separatorBefore(text, cursor) === 2 && previous !== 116) return true; // after a JSON-escaped line break
  const value = previousToken(text, start, limit);
  const keyword = value && previousToken(text, value.start, limit);
  return keyword !== undefined && NETRC_KEYWORDS.has(text.slice(keyword.start, keyword.end));
}

/** The password value of a netrc entry, at the keyword `password` (`machine h login u password p`). */
function matchNetrc(text: string, index: number): RuleMatch | undefined {
  if (index > 0 && separatorBefore(text, index) === 0 && !isQuote(text.charCodeAt(index - 1)))
    return undefined;
  let start = index + 8;
  if (separatorAt(text, start) === 0) return undefined;
  for (let steps = 0, size = separatorAt(text, start); steps < 8 && size > 0; steps++) {
    start += size;
    size = separatorAt(text, start);
  }
  let end = start;
  if (text.charCodeAt(start) === 34) {
    // A quoted value (curl, Python): up to the closing quote on the same line.
    start++;
    for (end = start; end < text.length && end - start <= MAX_VALUE; end++) {
      const code = text.charCodeAt(end);
      if (code === 34 || code === 10 || code === 13) break;
      if (code === 92) end++;
    }
    if (text.charCodeAt(end) !== 34) return undefined;
  } else {
    while (end < text.length && end - start <= MAX_VALUE && separatorAt(text, end) === 0) {
      const code = text.charCodeAt(end);
      if (isQuote(code) || (code === 92 && text.charCodeAt(end + 1) === 34)) break; // `\"` ends a JSON string
      end++;
    }
  }
  if (end === start || end - start > MAX_VALUE) return undefined;
  const value = text.slice(start, end);
  if (NETRC_KEYWORDS.has(value) || isPlaceholder(value)) return undefined;
  // Back through `login`/`account`/`port` pairs to `machine <host>` or `default`.
  const limit = Math.max(0, index - LOOKBACK);
  let cursor = index;
  let login = false;
  for (let pairs = 0; pairs < 6; pairs++) {
    const token = previousToken(text, cursor, limit);
    if (token === undefined) return undefined;
    const keyword = previousToken(text, token.start, limit);
    const word = keyword === undefined ? '' : text.slice(keyword.start, keyword.end);
    if (keyword !== undefined && (word === 'login' || word === 'account' || word === 'port')) {
      login ||= word === 'login';
      cursor = keyword.start;
      continue;
    }
    if (keyword !== undefined && word === 'machine')
      return beginsEntry(text, keyword.start, limit) ? { start, end, kind: 'password' } : undefined;
    // `default` takes no host; in prose ("default password is...") it has no login either.
    if (text.slice(token.start, token.end) === 'default' && login && beginsEntry(text, token.start, limit))
      return { start, end, kind: 'password' };
    return undefined;
  }
  return undefined;
}

/** Passwords in `.netrc` / `_netrc` entries. */
export const netrc: SecretRule = {
  id: 'netrc',
  description:
    '.netrc entries (machine host login user password secret, one line or several, and the default entry): the password',
  anchors: ['password'],
  match: matchNetrc,
  maxLength: 8 + 8 + MAX_VALUE + 2,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 16)}${fake.chars(ALPHABETS.digits, 2)}`;
    return [
      {
        text: `machine api.example.com\n  login deploy\n  password ${password}\n`,
        secret: password,
        kind: 'password',
      },
      {
        text: `machine github.com login x-access-token password ${password}`,
        secret: password,
        kind: 'password',
      },
      { text: `default login anonymous password ${password}\n`, secret: password, kind: 'password' },
    ];
  },
  negatives: () => [
    'Enter the default password for this machine.',
    'the machine learning login page password reset',
    'default password is admin',
    'machine github.com login x-access-token password <your-token>',
  ],
};
