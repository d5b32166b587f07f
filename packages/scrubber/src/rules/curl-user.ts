import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { isBlank, isQuote, isWhitespace } from './characters.js';

// `curl -u user:password` in command text and logs. The rule looks back from the option for the
// curl command it belongs to, at most LOOKBACK characters: a stream keeps 256 characters of
// emitted text as context, so a stream finds what a one-shot scan finds.

const LOOKBACK = 240;
const MAX_USER = 128;
const MAX_VALUE = 512;

function isWordCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 45 ||
    code === 46
  );
}

/**
 * Whether the option at `index` belongs to a curl command: the word `curl` (also `/usr/bin/curl`,
 * `curl.exe`, `'curl',` in an argument list) earlier in the same command, where line breaks
 * only follow a continuation backslash and no `|`, `&&`, `||` or `; ` starts another command.
 */
function inCurlCommand(text: string, index: number): boolean {
  const from = Math.max(0, index - LOOKBACK);
  const before = text.slice(from, index); // a bounded view
  let at = before.lastIndexOf('curl');
  while (at !== -1) {
    const previous = at > 0 ? before.charCodeAt(at - 1) : from > 0 ? text.charCodeAt(from - 1) : 32;
    const next = before.charCodeAt(at + 4);
    if (!isWordCode(previous) && (isWhitespace(next) || isQuote(next) || next === 46)) break;
    at = at === 0 ? -1 : before.lastIndexOf('curl', at - 1);
  }
  if (at === -1) return false;
  const command = before.slice(at);
  if (command.includes('&&') || command.includes('||') || command.includes(' | ') || command.includes('; '))
    return false;
  for (let newline = command.indexOf('\n'); newline !== -1; newline = command.indexOf('\n', newline + 1)) {
    const end = command.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
    if (command.charCodeAt(end - 1) !== 92) return false;
  }
  return true;
}

/** Length of the curl option at `index` (`-u`, `-U`, `--user`, `--proxy-user`). */
function optionLength(text: string, index: number): number {
  if (text.charCodeAt(index + 1) !== 45) return 2;
  return text.startsWith('--user', index) ? 6 : 12;
}

/** The password of `curl -u user:password` (also `-uuser:pass`, `--user`, `-U`, `--proxy-user`), quoted or not. */
function matchCurlUser(text: string, index: number): RuleMatch | undefined {
  const before = index > 0 ? text.charCodeAt(index - 1) : 32;
  if (!(isWhitespace(before) || isQuote(before) || before === 44 || before === 91)) return undefined;
  const long = text.charCodeAt(index + 1) === 45;
  let cursor = index + optionLength(text, index);
  // After the option: spaces, or the quotes and comma of an argument list (`'-u', 'user:pass'`).
  let quote = 0;
  let escapedQuote = false;
  for (let steps = 0; steps < 8 && cursor < text.length; steps++) {
    const code = text.charCodeAt(cursor);
    if (isBlank(code) || code === 44) quote = 0;
    else if (isQuote(code)) {
      quote = code;
      escapedQuote = text.charCodeAt(cursor - 1) === 92;
    } else if (!(code === 92 && isQuote(text.charCodeAt(cursor + 1)))) break;
    cursor++;
  }
  if (long && cursor === index + optionLength(text, index)) return undefined; // `--user-agent`, `--username`
  // The user name, up to the first colon.
  const userStart = cursor;
  while (cursor < text.length && cursor - userStart <= MAX_USER) {
    const code = text.charCodeAt(cursor);
    if (code === 58 || isWhitespace(code) || isQuote(code) || code === 92) break;
    cursor++;
  }
  if (text.charCodeAt(cursor) !== 58) return undefined; // no password: curl asks for it
  const start = cursor + 1;
  let end = start;
  while (end < text.length && end - start <= MAX_VALUE) {
    const code = text.charCodeAt(end);
    if (code === 10 || code === 13) break;
    if (quote === 0 ? isWhitespace(code) || isQuote(code) : code === quote) break;
    if (code === 92 && (quote === 0 || escapedQuote) && isQuote(text.charCodeAt(end + 1))) break; // `\"` ends a JSON-escaped argument
    if (code === 92 && quote === 34) end++; // an escaped character inside double quotes
    end++;
  }
  if (quote !== 0 && text.charCodeAt(end) !== quote && text.charCodeAt(end) !== 92) return undefined;
  if (end === start || end - start > MAX_VALUE) return undefined;
  const value = text.slice(start, end);
  if (isPlaceholder(value) || isPlaceholder(text.slice(userStart, cursor))) return undefined;
  if (!inCurlCommand(text, index)) return undefined;
  return { start, end, kind: 'password' };
}

/** `curl -u user:password` in command text and logs. */
export const curlUser: SecretRule = {
  id: 'curl_user',
  description:
    'Passwords given to curl on the command line: -u/--user user:password (also -uuser:pass) and -U/--proxy-user',
  anchors: ['-u', '-U', '--user', '--proxy-user'],
  match: matchCurlUser,
  maxLength: 12 + 8 + MAX_USER + MAX_VALUE + 2,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 12)}!${fake.chars(ALPHABETS.digits, 2)}`;
    const user = fake.chars('abcdefghijklmnopqrstuvwxyz', 8);
    return [
      {
        text: `$ curl -sS -u ${user}:${password} https://api.example.com/v1/items`,
        secret: password,
        kind: 'password',
      },
      { text: `curl -u${user}:${password} https://api.example.com`, secret: password, kind: 'password' },
      { text: `curl --user '${user}:${password}' -X POST https://a`, secret: password, kind: 'password' },
      {
        text: `curl -x http://proxy:3128 --proxy-user "${user}:${password}" https://a`,
        secret: password,
        kind: 'password',
      },
      { text: `["curl", "-u", "${user}:${password}", "https://a"]`, secret: password, kind: 'password' },
    ];
  },
  negatives: () => [
    'curl -u alice https://api.example.com',
    'curl -u user:password https://a',
    'curl -u "$API_USER:$API_PASSWORD" https://a',
    'docker run --rm -u 1000:1000 alpine id',
    'git push -u origin main:main',
    "curl --user-agent 'Mozilla/5.0 (X11; Linux x86_64)' https://a",
  ],
};
