import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';

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

/** End of the header value: the line end, or the closing quote when quoted; -1 when longer than allowed. */
function valueEnd(text: string, start: number, quoted: boolean, stopAtSemicolon: boolean): number {
  let end = start;
  while (end < text.length && end - start <= MAX_VALUE) {
    const code = text.charCodeAt(end);
    if (code === 10 || code === 13 || (quoted && code === 34) || (stopAtSemicolon && code === 59)) break;
    if (quoted && code === 92) end++;
    end++;
  }
  if (end - start > MAX_VALUE) return -1;
  while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return end;
}

function matchCookie(text: string, index: number): RuleMatch | undefined {
  const setCookie = (text.charCodeAt(index) | 0x20) === 115; // s of Set-Cookie
  // `Cookie:` inside `Set-Cookie:` is the other anchor's; a word before means another header name.
  if (index > 0 && /[A-Za-z0-9_-]/.test(text.charAt(index - 1))) return undefined;
  const colon = text.indexOf(':', index);
  const { start, quoted } = valueStart(text, colon + 1);
  if (!setCookie) {
    const end = valueEnd(text, start, quoted, false);
    if (end - start < 16 || isPlaceholder(text.slice(start, end))) return undefined;
    return { start, end, kind: 'cookie' };
  }
  const equals = text.indexOf('=', start);
  if (equals === -1 || equals - start > 256) return undefined;
  const end = valueEnd(text, equals + 1, quoted, true);
  if (end - equals - 1 < 8 || isPlaceholder(text.slice(equals + 1, end))) return undefined;
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
