import { isPlaceholder } from '../placeholder.js';
import type { RuleMatch } from '../types.js';
import { isQuote } from './characters.js';
import { CODE_VALUE_PATTERNS, hasFileExtension, looksLikeCode } from './code-values.js';
import { keyWords } from './key-names.js';
import {
  ansiQuotedEnd,
  dumpLineEnd,
  joinedQuoteEnd,
  multiLineQuotedEnd,
  startsLine,
} from './shell-values.js';
import {
  UNQUOTED_PATTERNS,
  bracedEnd,
  escapedQuoteStart,
  quotedEnd,
  unquotedEnd,
  wordEnd,
  wrappedValueStart,
} from './value-ends.js';
import { blockScalar } from './yaml-values.js';

// The value of an assignment (assignment.ts found its key): quoted, braced, `$'...'`, a YAML
// block scalar, a credential after an `Authorization` scheme, or an unquoted literal; rejected
// when it looks like code, a placeholder, a path or prose.

/** The longest value taken. */
export const MAX_VALUE = 512;
// `AWS` is S3's signature version 2 header (`Authorization: AWS KEYID:SIGNATURE`).
const AUTH_SCHEME = /(?:bearer|basic|token|digest|bot|negotiate|apikey|sso-key|aws)[ \t]+/iy;
const DIGEST_SCHEME = /digest[ \t]+$/i;
const DIGEST_RESPONSE = /(?:^|[\s,])response[ \t]*=[ \t]*"?([0-9A-Fa-f]{16,128})/;
const CAPITALIZED_WORD = /^[A-Z][a-z]+$/;
const VERSION = /^[\^~>=<]{0,2}v?[0-9]+(?:\.[0-9]+)+/;
const FETCH_MODES: ReadonlySet<string> = new Set(['include', 'same-origin', 'omit']);
const ABSOLUTE_PATH = /^(?:~|\.{1,2})?(?:\/[\w.@-]{1,255}){1,64}\/?$/;
// An ABNF repetition of a rule name (`token = 1*tchar`, `secret = *DIGIT` in a grammar comment):
// one case only, so a random value with a star (`8*Kx9q...`) still counts.
const ABNF_REPETITION = /^[0-9]{0,3}\*[0-9]{0,3}(?:[a-z][a-z-]{0,30}|[A-Z][A-Z-]{0,30})$/;

/** The regexes of the value readers (checked for linear time by a test). */
export const ASSIGNMENT_VALUE_PATTERNS: readonly RegExp[] = [
  DIGEST_SCHEME,
  DIGEST_RESPONSE,
  AUTH_SCHEME,
  CAPITALIZED_WORD,
  VERSION,
  ABSOLUTE_PATH,
  ABNF_REPETITION,
  ...CODE_VALUE_PATTERNS,
  ...UNQUOTED_PATTERNS,
];

/** What the key before the value says. */
export interface KeyInfo {
  readonly key: string;
  readonly kind: string;
  readonly inQuery: boolean;
  readonly keyStart: number;
  /** Character code of the separator (`:` or `=`). */
  readonly separator: number;
}

/** The value after the separator (`from` is just past it), or undefined when it is no literal. */
export function matchValue(text: string, from: number, info: KeyInfo): RuleMatch | undefined {
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
  if (VERSION.test(value) || ABNF_REPETITION.test(value)) return false;
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
