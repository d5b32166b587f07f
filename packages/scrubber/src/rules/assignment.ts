import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch, SecretRule } from '../types.js';
import { isNameCode, isQuote } from './characters.js';
import { arrowKey } from './arrow-pairs.js';
import { CODE_VALUE_PATTERNS, hasFileExtension, looksLikeCode } from './code-values.js';
import { credentialKind, hasCredentialTail, keyWords } from './key-names.js';
import {
  ansiQuotedEnd,
  dumpLineEnd,
  joinedQuoteEnd,
  multiLineQuotedEnd,
  startsLine,
} from './shell-values.js';
import {
  MAX_ESCAPES,
  MAX_WRAP,
  UNQUOTED_PATTERNS,
  bracedEnd,
  escapedQuoteStart,
  quotedEnd,
  unquotedEnd,
  wordEnd,
  wrappedValueStart,
} from './value-ends.js';
import { blockScalar } from './yaml-values.js';

const MAX_KEY = 64;
const MAX_VALUE = 512;
const AUTH_SCHEME = /(?:bearer|basic|token|digest|bot|negotiate|apikey|sso-key)[ \t]+/iy;
const DIGEST_SCHEME = /digest[ \t]+$/i;
const DIGEST_RESPONSE = /(?:^|[\s,])response[ \t]*=[ \t]*"?([0-9A-Fa-f]{16,128})/;
const CAPITALIZED_WORD = /^[A-Z][a-z]+$/;
const VERSION = /^[\^~>=<]{0,2}v?[0-9]+(?:\.[0-9]+)+/;
const FETCH_MODES: ReadonlySet<string> = new Set(['include', 'same-origin', 'omit']);
const ABSOLUTE_PATH = /^(?:~|\.{1,2})?(?:\/[\w.@-]{1,255}){1,64}\/?$/;

/** The regexes the assignment matcher uses internally (checked for linear time by a test). */
export const ASSIGNMENT_PATTERNS: readonly RegExp[] = [
  DIGEST_SCHEME,
  DIGEST_RESPONSE,
  AUTH_SCHEME,
  CAPITALIZED_WORD,
  VERSION,
  ABSOLUTE_PATH,
  ...CODE_VALUE_PATTERNS,
  ...UNQUOTED_PATTERNS,
];

/**
 * Matches `key = value`, `key: value`, `"key": "value"`, `key=value&` at a `:` or `=` whose key
 * name holds a credential, and returns the value's span. The value must look like a literal
 * (quoted, or on an .env/YAML line, or not an identifier), not code or a placeholder.
 */
export function matchAssignment(text: string, separator: number): RuleMatch | undefined {
  const separatorCode = text.charCodeAt(separator);
  const next = text.charCodeAt(separator + 1);
  const before = separator > 0 ? text.charCodeAt(separator - 1) : 0;
  if (separatorCode === 61 && next === 62) {
    // `'password' => 'x'` in a Perl, Ruby or PHP dump.
    const pair = arrowKey(text, separator);
    const kind = pair === undefined ? undefined : credentialKind(pair.key);
    if (pair === undefined || kind === undefined) return undefined;
    return matchValue(text, separator + 2, { ...pair, kind, inQuery: false, separator: separatorCode });
  }
  if (
    separatorCode === 61 &&
    (next === 61 || next === 62 || before === 61 || before === 33 || before === 60 || before === 62)
  )
    return undefined;
  if (separatorCode === 58 && (next === 58 || before === 58 || next === 47)) return undefined;
  // Walk back over `:` of `:=`, spaces, closing quotes and JSON escapes to the key name.
  let keyEnd = separator;
  if (separatorCode === 61 && before === 58) keyEnd--;
  // (JSON escaped n levels deep puts 2^n - 1 backslashes before each quote: `\\\"` at three.)
  for (let steps = 0; steps < MAX_ESCAPES + 4 && keyEnd > 0; steps++) {
    const code = text.charCodeAt(keyEnd - 1);
    if (code === 32 || code === 9 || isQuote(code) || code === 92) keyEnd--;
    else break;
  }
  if (!hasCredentialTail(text, keyEnd)) return undefined;
  let keyStart = keyEnd;
  while (keyStart > 0 && keyEnd - keyStart < MAX_KEY && isNameCode(text.charCodeAt(keyStart - 1))) keyStart--;
  if (text.startsWith('//', keyStart - 2)) return undefined; // URL userinfo: the url_password rule's
  const key = text.slice(keyStart, keyEnd);
  const kind = credentialKind(key);
  if (kind === undefined) return undefined;
  const precedingCode = text.charCodeAt(keyStart - 1);
  const inQuery = precedingCode === 63 || precedingCode === 38;
  return matchValue(text, separator + 1, { key, kind, inQuery, keyStart, separator: separatorCode });
}

interface KeyInfo {
  readonly key: string;
  readonly kind: string;
  readonly inQuery: boolean;
  readonly keyStart: number;
  /** Character code of the separator (`:` or `=`). */
  readonly separator: number;
}

function matchValue(text: string, from: number, info: KeyInfo): RuleMatch | undefined {
  let start = from;
  while (
    start < text.length &&
    start - from < 8 &&
    (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)
  )
    start++;
  if (info.separator === 58 && (text.charCodeAt(start) === 10 || text.charCodeAt(start) === 13))
    start = wrappedValueStart(text, start);
  start = escapedQuoteStart(text, start); // \" (or \\\" ...) inside a JSON string
  const quote = text.charCodeAt(start);
  if (isQuote(quote)) return matchQuoted(text, start + 1, quote, info);
  // ODBC connection strings quote a value in braces (`PWD={a;b}`, `}}` for a brace inside it).
  if (quote === 123 && start === from && info.separator === 61) {
    const end = bracedEnd(text, start + 1);
    const value = end === undefined ? '' : text.slice(start + 1, end);
    return end === undefined || !acceptableValue(value, info)
      ? undefined
      : { start: start + 1, end, kind: info.kind };
  }
  // bash's $'...' (`set`, `declare -p` print a value with control characters so).
  if (quote === 36 && text.charCodeAt(start + 1) === 39 && startsLine(text, info.keyStart)) {
    const end = ansiQuotedEnd(text, start + 2);
    const value = text.slice(start + 2, Math.max(end, start + 2));
    return end === -1 || !acceptableValue(value, info)
      ? undefined
      : { start: start + 2, end, kind: info.kind };
  }
  // YAML's `password: |` (or `>-`): the value is on the more-indented lines that follow.
  if ((quote === 124 || quote === 62) && info.separator === 58 && startsLine(text, info.keyStart)) {
    const block = blockScalar(text, start, info.keyStart);
    if (block === undefined) return undefined;
    const value = text.slice(block.start, block.end).trim();
    return value.length < 4 || isPlaceholder(value) ? undefined : { ...block, kind: info.kind };
  }
  AUTH_SCHEME.lastIndex = start;
  if (AUTH_SCHEME.test(text))
    return matchCredentialAfterScheme(text, AUTH_SCHEME.lastIndex, info.kind, info.inQuery);
  let end = unquotedEnd(text, start, info.inQuery);
  // A `NAME=` line of an .env file or a shell: `<` and `>` are characters of the value there.
  if (
    info.separator === 61 &&
    !info.inQuery &&
    (text.charCodeAt(end) === 60 || text.charCodeAt(end) === 62) &&
    startsLine(text, info.keyStart)
  )
    end = wordEnd(text, end);
  // `env` prints values raw: on a line of such a dump the value is the rest of the line.
  if (info.separator === 61) end = Math.max(end, dumpLineEnd(text, info.keyStart, start));
  // In HTML a query's `&` is `&amp;`: the value ends there, and the entity stays whole.
  const entity = text.slice(start, end).indexOf('&amp');
  if (entity > 0 && text.startsWith('&amp;', start + entity)) end = start + entity;
  if (end === start || end - start > MAX_VALUE) return undefined;
  const value = text.slice(start, end);
  const following = text.charCodeAt(end);
  if (following === 40 || following === 91) return undefined; // a call or an index: code
  if (!acceptableValue(value, info)) return undefined;
  const literalLine =
    (end >= text.length || following === 10 || following === 13) && startsLine(text, info.keyStart);
  // On an .env/shell line (`KEY=value`) everything after `=` is a literal; elsewhere it may be code.
  if (!(literalLine && info.separator === 61) && looksLikeCode(value)) return undefined;
  // A bare word is a literal only on an .env or YAML line (`PASS=word`, `pass: word`).
  if (/^[A-Za-z_]+$/.test(value) && !literalLine) return undefined;
  return { start, end, kind: info.kind };
}

function matchQuoted(text: string, start: number, quote: number, info: KeyInfo): RuleMatch | undefined {
  let end = quotedEnd(text, start, quote);
  if (text.charCodeAt(end) === 10 || text.charCodeAt(end) === 13)
    return matchMultiLine(text, start, quote, info);
  if (
    end >= text.length ||
    text.charCodeAt(end) === 10 ||
    text.charCodeAt(end) === 13 ||
    end - start > MAX_VALUE
  )
    return undefined;
  // bash quotes a quote inside '...' as '\'' (`set` output): the value runs to the last quote.
  if (quote === 39 && info.separator === 61 && startsLine(text, info.keyStart))
    end = joinedQuoteEnd(text, end);
  AUTH_SCHEME.lastIndex = start;
  if (AUTH_SCHEME.test(text) && AUTH_SCHEME.lastIndex < end) {
    return matchCredentialAfterScheme(text, AUTH_SCHEME.lastIndex, info.kind, false, end);
  }
  const value = text.slice(start, end);
  // A quoted value with spaces is prose (`"token": "The token used to..."`), except on an .env or
  // shell line, where it is a passphrase: `DB_PASSWORD="correct horse battery staple"`.
  const after = text.charCodeAt(end + 1);
  const envLine =
    info.separator === 61 &&
    (end + 1 >= text.length || after === 10 || after === 13) &&
    startsLine(text, info.keyStart);
  if ((value.includes(' ') && !envLine) || CAPITALIZED_WORD.test(value)) return undefined;
  if (!acceptableValue(value, info)) return undefined;
  return { start, end, kind: info.kind };
}

/**
 * A quoted value of a shell dump that runs over lines (`NAME='...` to `...'` at a line's end):
 * only right after `=` of a name that begins a line (or follows `export `/`declare -x `).
 */
function matchMultiLine(text: string, start: number, quote: number, info: KeyInfo): RuleMatch | undefined {
  if (info.separator !== 61 || quote === 96 || text.charCodeAt(start - 2) !== 61) return undefined;
  if (!startsLine(text, info.keyStart)) return undefined;
  const end = multiLineQuotedEnd(text, start, quote);
  if (end === -1 || end - start < 4 || isPlaceholder(text.slice(start, end).trim())) return undefined;
  return { start, end, kind: info.kind };
}

function matchCredentialAfterScheme(
  text: string,
  start: number,
  kind: string,
  inQuery: boolean,
  limit = text.length,
): RuleMatch | undefined {
  // HTTP Digest sends `username="..", realm="..", ..., response="<hash>"`: the hash is the credential.
  if (DIGEST_SCHEME.test(text.slice(Math.max(0, start - 16), start))) {
    const line = text.slice(start, Math.min(limit, start + 1024));
    const response = DIGEST_RESPONSE.exec(line.split(/[\r\n]/, 1)[0] as string);
    if (response === null) return undefined;
    const hashStart = start + response.index + response[0].length - (response[1] as string).length;
    return { start: hashStart, end: hashStart + (response[1] as string).length, kind: 'authorization' };
  }
  const end = unquotedEnd(text, start, inQuery, limit);
  const value = text.slice(start, end);
  if (end - start < 8 || end - start > MAX_VALUE || isPlaceholder(value)) return undefined;
  return { start, end, kind: kind === 'authorization' || kind === 'token' ? 'authorization' : kind };
}

function acceptableValue(value: string, info: KeyInfo): boolean {
  if (value.length < 4 || isPlaceholder(value) || value.includes('://')) return false;
  if (/^[0-9]{1,7}$/.test(value)) return false;
  const first = value.charCodeAt(0);
  if (first === 123 || first === 91 || first === 40) return false; // { [ (
  if (VERSION.test(value)) return false;
  // `PWD` is the working directory, and a file path says where a credential is, not what it is:
  // `GOOGLE_APPLICATION_CREDENTIALS=/home/me/.config/gcloud/key.json` (both in every env dump).
  if ((info.key === 'PWD' || hasFileExtension(value)) && ABSOLUTE_PATH.test(value)) return false;
  // The Fetch API's `credentials: 'include'` (and `same-origin`, `omit`) is a mode, not a secret.
  if (FETCH_MODES.has(value) && info.key.toLowerCase() === 'credentials') return false;
  const lower = value.toLowerCase();
  const words = keyWords(info.key);
  if (words.includes(lower) || lower === info.key.toLowerCase()) return false;
  // Lower-case words naming the thing itself are identifiers, not values: `invalid_token`, `my-secret`.
  const last = words[words.length - 1] ?? '';
  return !(/^[a-z_.-]+$/.test(value) && last.length > 0 && lower.includes(last));
}

/**
 * Credentials assigned to a key that names them: `.env` lines, shell exports, YAML, JSON, code
 * literals, URL query parameters and HTTP headers such as `Authorization: Bearer ...`.
 */
export const assignment: SecretRule = {
  id: 'assignment',
  description:
    'Values of keys named like credentials (password, passwd, pwd, secret, token, api_key, access_key, credential, auth, authorization, bearer) after : or =, including Authorization headers and .env lines; AWS secret keys by their key names',
  anchors: [':', '='],
  match: matchAssignment,
  maxLength: MAX_VALUE + MAX_WRAP + 16,
  positives: (fake) => {
    const password = `${fake.chars(ALPHABETS.alnum, 10)}!${fake.chars(ALPHABETS.digits, 2)}`;
    const token = fake.chars(ALPHABETS.hex, 32);
    const awsSecret = fake.chars(ALPHABETS.base64, 40);
    const bearer = fake.chars(ALPHABETS.base64url, 40);
    const basic = fake.base64(24);
    const word = fake.chars(ALPHABETS.letters, 12);
    const lowerWord = fake.chars('abcdefghijklmnopqrstuvwxyz', 12);
    return [
      { text: `DB_PASSWORD=${password}\nDB_HOST=db`, secret: password, kind: 'password' },
      { text: `export TWILIO_AUTH_TOKEN="${token}"`, secret: token, kind: 'token' },
      { text: `{"username":"svc","password":"${password}"}`, secret: password, kind: 'password' },
      { text: `db:\n  password: ${password}\n  port: 5432\n`, secret: password, kind: 'password' },
      { text: `SMTP_PASS=${word}\n`, secret: word, kind: 'password' },
      { text: `smtp:\n  pass: ${lowerWord}\n`, secret: lowerWord, kind: 'password' },
      { text: `aws_secret_access_key = ${awsSecret}\n`, secret: awsSecret, kind: 'aws_secret_key' },
      {
        text: `{"AccessKeyId":"ASIA...","SecretAccessKey":"${awsSecret}"}`,
        secret: awsSecret,
        kind: 'aws_secret_key',
      },
      {
        text: `curl -H "Authorization: Bearer ${bearer}" https://api`,
        secret: bearer,
        kind: 'authorization',
      },
      { text: `Authorization: Basic ${basic}\r\nHost: x`, secret: basic, kind: 'authorization' },
      { text: `GET /cb?code=1&access_token=${token}&state=z`, secret: token, kind: 'token' },
      { text: `client_secret: '${token}',`, secret: token, kind: 'secret' },
      { text: `apiKey := "${token}"`, secret: token, kind: 'api_key' },
      { text: `{\\"password\\":\\"${password}\\"}`, secret: password, kind: 'password' },
      {
        text: `level=info msg="login" user=bob password=${password} ip=10.0.0.1`,
        secret: password,
        kind: 'password',
      },
      { text: `x-api-key: ${token}`, secret: token, kind: 'api_key' },
      { text: `<a href="/cb?code=1&amp;access_token=${token}&amp;state=z">`, secret: token, kind: 'token' },
      {
        text: `DB_PASSWORD="${word} ${lowerWord} ${password}"\nDB_HOST=db`,
        secret: `${word} ${lowerWord} ${password}`,
        kind: 'password',
      },
    ];
  },
  negatives: () => [
    'const password = getPassword();',
    'token: string;',
    'password: password,',
    'if (token == null) return;',
    'const tokens = tokenize(text);',
    '"password": { "type": "string", "minLength": 8 }',
    '"password": "Passwort"',
    '"token": "The token used to authenticate"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the sample
    'password=${DB_PASSWORD}',
    'PASSWORD=<your-password>',
    'api_key: xxxxxxxxxxxxxxxx',
    'secret = os.environ["SECRET"]',
    'auth: true',
    'max_tokens=4096',
    'let token = this.token;',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the sample
    'Authorization: Bearer ${TOKEN}',
    'password: "********"',
    'tokenizer: "bert-base-uncased"',
    'a ? token : fallback',
    'password_hint: "the name of your first pet"',
    'token: process.env.UPSTASH_REDIS_REST_TOKEN!,',
    '"js-tiktoken": "^1.0.12",',
    'InvalidToken = "invalid_token",',
    '\t\trefresh_token: refreshToken\n\t}',
    "clientSecret: 'my-idp-secret',",
    'onresumptiontoken: options?.onresumptiontoken',
    'progressToken: ProgressTokenSchema$1',
    'secretsMap: { OPENAI_API_KEY: "sk-..." }',
    'PWD=/home/dev/project\n',
    'GOOGLE_APPLICATION_CREDENTIALS=/home/dev/.config/gcloud/application_default_credentials.json\n',
    '"Env": ["PWD=/app", "PRIVATE_KEY=~/.ssh/id_ed25519.pub"]',
  ],
};
