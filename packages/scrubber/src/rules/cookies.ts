import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { registerMemo } from './memos.js';

// Cookies in header dumps (`curl -v`, HTTP logs, HAR-like JSON): a `Cookie:` header is the
// session, so its whole value goes; a `Set-Cookie:` header keeps its name and attributes.

// Longer than the short rules' hold-back: a stream holds a header value that is still open (it
// reaches the end of the buffer), so the bound only stops a runaway line.
const MAX_VALUE = 8192;

/** Where the header value starts after the anchor (spaces, a JSON quote or array), and whether it is quoted. */
function valueStart(text: string, from: number): { start: number; quoted: boolean } {
  let start = from;
  let quoted = false;
  for (let steps = 0; steps < 8 && start < text.length; steps++) {
    const code = text.charCodeAt(start);
    if (code === 32 || code === 9 || code === 91) start++;
    else if (code === 34) {
      quoted = true;
      start++;
    } else break;
  }
  return { start, quoted };
}

/**
 * The last terminator search: `[from, scannedTo)` holds no terminator, and `end` is the one found
 * at `scannedTo` (or -1 when the search stopped at its bound). Anchors repeated on one line
 * (`Cookie: Cookie: ...`) resume it instead of scanning the line again, so the rule stays linear.
 */
let memo: { text: string; mode: number; from: number; scannedTo: number; end: number } | undefined;
registerMemo(() => {
  memo = undefined;
});

/** Position of the character that ends a header value starting at `start`, the text end, or -1 past the bound. */
function terminator(text: string, start: number, quoted: boolean, stopAtSemicolon: boolean): number {
  const mode = (quoted ? 1 : 0) | (stopAtSemicolon ? 2 : 0);
  let from = start;
  let cursor = start;
  if (
    memo !== undefined &&
    memo.text === text &&
    memo.mode === mode &&
    start >= memo.from &&
    start <= memo.scannedTo
  ) {
    if (memo.end !== -1) return memo.end;
    from = memo.from;
    cursor = memo.scannedTo;
  }
  const limit = Math.min(text.length, start + MAX_VALUE + 1);
  while (cursor < limit) {
    const code = text.charCodeAt(cursor);
    if (code === 10 || code === 13 || (quoted && code === 34) || (stopAtSemicolon && code === 59)) break;
    cursor += quoted && code === 92 ? 2 : 1;
  }
  const end = cursor < limit || limit === text.length ? Math.min(cursor, text.length) : -1;
  memo = { text, mode, from, scannedTo: Math.min(cursor, text.length), end };
  return end;
}

/** End of the header value, trailing spaces dropped; a value longer than allowed is cut at the bound (redacted up to there). */
function valueEnd(text: string, start: number, quoted: boolean, stopAtSemicolon: boolean): number {
  let end = terminator(text, start, quoted, stopAtSemicolon);
  if (end === -1 || end - start > MAX_VALUE) end = start + MAX_VALUE;
  while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return end;
}

/** Placeholders are checked on the first 64 characters: a placeholder is short, and the check stays bounded. */
function matchCookie(text: string, index: number): RuleMatch | undefined {
  const setCookie = (text.charCodeAt(index) | 0x20) === 115; // s of Set-Cookie
  // `Cookie:` inside `Set-Cookie:` is the other anchor's; a word before means another header name.
  if (index > 0 && /[A-Za-z0-9_-]/.test(text.charAt(index - 1))) return undefined;
  const colon = text.indexOf(':', index);
  const { start, quoted } = valueStart(text, colon + 1);
  if (!setCookie) {
    const end = valueEnd(text, start, quoted, false);
    if (end - start < 16 || isPlaceholder(text.slice(start, Math.min(end, start + 64)))) return undefined;
    return { start, end, kind: 'cookie' };
  }
  // Searched in a bounded slice (a view): `Set-Cookie:` repeated with no `=` stays linear.
  const offset = text.slice(start, start + 256).indexOf('=');
  if (offset === -1) return undefined;
  const equals = start + offset;
  const end = valueEnd(text, equals + 1, quoted, true);
  if (end - equals - 1 < 8 || isPlaceholder(text.slice(equals + 1, Math.min(end, equals + 65))))
    return undefined;
  return { start: equals + 1, end, kind: 'cookie' };
}

/** Session cookies in `Cookie:` and `Set-Cookie:` headers. */
export const cookie: SecretRule = {
  id: 'cookie',
  description:
    'Cookie headers (the whole value) and Set-Cookie headers (the value of the cookie, not its name or attributes), also in JSON header dumps',
  anchors: [
    'Cookie:',
    'cookie:',
    'Cookie":',
    'cookie":',
    'Set-Cookie:',
    'set-cookie:',
    'Set-Cookie":',
    'set-cookie":',
  ],
  match: matchCookie,
  maxLength: MAX_VALUE + 300,
  positives: (fake) => {
    const session = fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 32);
    const jar = `sessionid=${session}; csrftoken=${fake.chars('abcdef0123456789', 32)}; theme=dark`;
    return [
      { text: `> GET / HTTP/1.1\r\n> Host: app\r\n> Cookie: ${jar}\r\n> Accept: */*\r\n`, secret: jar },
      {
        text: `< HTTP/1.1 200 OK\r\n< Set-Cookie: sessionid=${session}; Path=/; HttpOnly\r\n`,
        secret: session,
      },
      { text: `{"headers":{"cookie":"${jar}","accept":"*/*"}}`, secret: jar },
      { text: `"set-cookie": ["JSESSIONID=${session}; Path=/; Secure"]`, secret: session },
    ];
  },
  negatives: () => [
    'Set-Cookie: lang=en; Path=/',
    'Cookie: theme=dark',
    'document.cookie: string;',
    'X-Cookie-Policy: strict',
    'Cookie: <your-session-cookie>',
  ],
};
