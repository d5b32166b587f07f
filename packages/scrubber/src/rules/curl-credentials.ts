import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { argumentAfter, argumentEnd } from './arguments.js';
import { isNameCode, isQuote, isWhitespace } from './characters.js';

// Credentials given to curl on its command line (`-u user:password`, `--oauth2-bearer`, `--pass`)
// in command text and logs. The rule looks back from the option for the curl command it belongs to, at most LOOKBACK characters: a stream keeps 256 characters of
// emitted text as context, so a stream finds what a one-shot scan finds.

const LOOKBACK = 240;
const MAX_USER = 128;
const MAX_VALUE = 512;

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
    if (!isNameCode(previous) && (isWhitespace(next) || isQuote(next) || next === 46)) break;
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

/** A curl option whose value is a credential. */
interface CredentialOption {
  /** Where the option's name ends. */
  readonly end: number;
  readonly kind: string;
  /** The value is `user:password` and only the password is secret. */
  readonly userPassword: boolean;
  /** The value may follow without a space (short options: `-uuser:pass`). */
  readonly attached: boolean;
}

const LONG_OPTIONS: readonly (readonly [name: string, kind: string, userPassword: boolean])[] = [
  ['--user', 'password', true],
  ['--proxy-user', 'password', true],
  ['--oauth2-bearer', 'authorization', false],
  ['--pass', 'password', false],
  ['--proxy-pass', 'password', false],
  ['--cookie', 'cookie', false],
];

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/**
 * The credential option at `index`: one of {@link LONG_OPTIONS}, or a cluster of short options
 * that reaches `u` or `U` (`-u`, `-U`, `-sSu`, `-vuuser:pass`: curl takes the rest of the
 * cluster, or the next argument, as the value).
 */
function optionAt(text: string, index: number): CredentialOption | undefined {
  if (text.charCodeAt(index + 1) === 45) {
    for (const [name, kind, userPassword] of LONG_OPTIONS) {
      const end = index + name.length;
      if (text.startsWith(name, index) && !isNameCode(text.charCodeAt(end)))
        return { end, kind, userPassword, attached: false };
    }
    return undefined;
  }
  for (let cursor = index + 1; cursor < index + 16; cursor++) {
    const code = text.charCodeAt(cursor);
    if (code === 117 || code === 85)
      return { end: cursor + 1, kind: 'password', userPassword: true, attached: true };
    if (code === 98) return { end: cursor + 1, kind: 'cookie', userPassword: false, attached: true };
    if (!isLetter(code)) return undefined;
  }
  return undefined;
}

/**
 * The secret of a curl credential option: the password of `-u user:password` (also `-uuser:pass`,
 * `-sSu`, `--user`, `-U`, `--proxy-user`), the token of `--oauth2-bearer`, the passphrase of
 * `--pass`/`--proxy-pass`; quoted or not.
 */
function matchCurlCredentials(text: string, index: number): RuleMatch | undefined {
  const before = index > 0 ? text.charCodeAt(index - 1) : 32;
  if (!(isWhitespace(before) || isQuote(before) || before === 44 || before === 91)) return undefined;
  const option = optionAt(text, index);
  if (option === undefined) return undefined;
  let argument = argumentAfter(text, option.end);
  // A value glued to the option in a word quoted whole (`'-uuser:pa ss'`, as `bash -x` prints a
  // password with a space) ends at the word's closing quote.
  const gluedInQuotes = option.attached && argument.start === option.end && isQuote(before);
  if (gluedInQuotes)
    argument = { ...argument, quote: before, escapedQuote: text.charCodeAt(index - 2) === 92 };
  let cursor = argument.start;
  if (!option.attached && cursor === option.end) return undefined; // a long option's value is the next argument (`--user=` is no curl syntax)
  const userStart = cursor;
  if (option.userPassword) {
    // The user name, up to the first colon.
    while (cursor < text.length && cursor - userStart <= MAX_USER) {
      const code = text.charCodeAt(cursor);
      if (code === 58 || isWhitespace(code) || isQuote(code) || code === 92) break;
      cursor++;
    }
    if (text.charCodeAt(cursor) !== 58) return undefined; // no password: curl asks for it
    cursor++;
  }
  const start = cursor;
  // A quoted word cut short (truncated output) still has its value up to the first blank.
  const end =
    argumentEnd(text, start, argument, MAX_VALUE) ??
    (gluedInQuotes
      ? argumentEnd(text, start, { ...argument, quote: 0, escapedQuote: false }, MAX_VALUE)
      : undefined);
  // A whole-value credential (a token, a passphrase) of fewer than 4 characters is a word.
  if (end === undefined || end - start < (option.userPassword ? 1 : 4)) return undefined;
  const value = text.slice(start, end);
  // `-b`/`--cookie` take cookies (`name=value; ...`, the session: redacted whole) or a file to read.
  if (option.kind === 'cookie' && !value.includes('=')) return undefined;
  if (isPlaceholder(value) || (option.userPassword && isPlaceholder(text.slice(userStart, start - 1))))
    return undefined;
  if (!inCurlCommand(text, index)) return undefined;
  return { start, end, kind: option.kind };
}

/** Credentials given to curl on the command line, in command text and logs. */
export const curlCredentials: SecretRule = {
  id: 'curl_credentials',
  description:
    'Credentials given to curl on the command line: the password of -u/--user user:password (also -uuser:pass, -sSu) and -U/--proxy-user, --oauth2-bearer tokens, --pass/--proxy-pass passphrases, -b/--cookie cookies',
  // Every `-`: short options come in clusters (`-sSu`), so no longer literal marks them.
  anchors: ['-'],
  match: matchCurlCredentials,
  maxLength: 16 + 8 + MAX_USER + MAX_VALUE + 2,
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
      { text: `curl -sSu ${user}:${password} https://a`, secret: password, kind: 'password' },
      { text: `curl --oauth2-bearer ${password} https://a`, secret: password, kind: 'authorization' },
    ];
  },
  negatives: () => [
    'curl -u alice https://api.example.com',
    'curl -u user:password https://a',
    'curl -u "$API_USER:$API_PASSWORD" https://a',
    'docker run --rm -u 1000:1000 alpine id',
    'git push -u origin main:main',
    "curl --user-agent 'Mozilla/5.0 (X11; Linux x86_64)' https://a",
    'curl --oauth2-bearer "$TOKEN" https://a',
    'curl -sSL -o out.tar.gz https://example.com/a-u:b',
  ],
};
