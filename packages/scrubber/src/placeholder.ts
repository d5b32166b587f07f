// Heuristics that tell a real credential from a placeholder, a template or a word.

const PLACEHOLDER_WORDS = [
  'example',
  'sample',
  'dummy',
  'placeholder',
  'your_',
  'your-',
  'yourtoken',
  'yourkey',
  'redacted',
  'changeme',
  'insert',
  'replace',
  '****',
  '...',
  '<%',
  '%>',
  '${',
  '{{',
  '%s',
  '$(',
  '%(',
];

const PLACEHOLDER_VALUES: ReadonlySet<string> = new Set([
  'password',
  'passwd',
  'pass',
  'secret',
  'token',
  'apikey',
  'api_key',
  'key',
  'null',
  'nil',
  'none',
  'undefined',
  'true',
  'false',
  'string',
  'number',
  'boolean',
  'object',
  'any',
  'unknown',
  'required',
  'optional',
  'empty',
  'test',
  'foo',
  'bar',
  'baz',
  'todo',
  'hidden',
  'masked',
  'bearer',
  'basic',
]);

/**
 * An angle-bracketed name (`<your-token>`, `<TOKEN>`, `sk-<key>`) that does not follow a letter or
 * digit: a `<` or `>` elsewhere is one more character of a generated password.
 */
const ANGLE_NAME = /(?:^|[^A-Za-z0-9])<[A-Za-z][\w .-]{0,40}>/;

/** The regexes the heuristics run, for the regex safety test. */
export const PLACEHOLDER_PATTERNS: readonly RegExp[] = [ANGLE_NAME];

/**
 * Values longer than this hold a placeholder word only as a word of their own: random text
 * holds a five-letter word now and then (a 1 MB base64 value "dummy" in any case about once in
 * 30, so a 1 MB Secret value was left in the clear), a value of up to 64 characters about once in
 * a million for all the words together.
 */
const WORDS_ANYWHERE_MAX_LENGTH = 64;

const isAlphanumeric = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/**
 * Whether `word` stands in `lower` as a word of its own: no letter or digit runs into it from
 * either side where it begins or ends with one (`my-dummy-key`, `EXAMPLE` at the end), as a
 * random run of letters around it would.
 */
function holdsWord(lower: string, word: string): boolean {
  const joinsBefore = isAlphanumeric(word.charCodeAt(0));
  const joinsAfter = isAlphanumeric(word.charCodeAt(word.length - 1));
  // Bounded: each pass moves past one occurrence.
  for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1)) {
    const before = at > 0 && joinsBefore && isAlphanumeric(lower.charCodeAt(at - 1));
    const end = at + word.length;
    const after = end < lower.length && joinsAfter && isAlphanumeric(lower.charCodeAt(end));
    if (!before && !after) return true;
  }
  return false;
}

/** True when `value` reads like a placeholder, template or well-known example, not a credential. */
export function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase();
  if (PLACEHOLDER_VALUES.has(lower)) return true;
  const anywhere = value.length <= WORDS_ANYWHERE_MAX_LENGTH;
  for (const word of PLACEHOLDER_WORDS)
    if (anywhere ? lower.includes(word) : holdsWord(lower, word)) return true;
  if (value.includes('<') && ANGLE_NAME.test(value)) return true;
  if (hasXRun(value)) return true;
  if (lower.startsWith('$') || lower.startsWith('[redacted')) return true;
  return distinctCharacters(value, 4) < 4 && value.length > 3;
}

/**
 * Whether `value` holds a run of one case of `x` as placeholders do (`sk-xxxx`,
 * `AKIAXXXXXXXXXXXXXXXX`): four in a short value, eight in one of 24 characters or more. A
 * random key has `XxXx` or even `xxxx` somewhere now and then (an 88-character base64 key about
 * once in 12 000 for any case); it must not be taken for a placeholder and left in the clear.
 */
function hasXRun(value: string): boolean {
  const run = value.length >= 24 ? 'xxxxxxxx' : 'xxxx';
  return value.includes(run) || value.includes(run.toUpperCase());
}

/** Number of distinct characters in `value`, counting up to `stopAt`. */
export function distinctCharacters(value: string, stopAt = 64): number {
  const seen = new Set<number>();
  for (let i = 0; i < value.length && seen.size < stopAt; i++) seen.add(value.charCodeAt(i));
  return seen.size;
}

/**
 * True when `body` (the random part of a token) looks machine-generated: at least two of
 * lower case, upper case and digits, enough distinct characters, no placeholder words, and not
 * a run of lower-case words joined by `-`/`_` (a CSS class or slug).
 */
export function looksRandom(body: string): boolean {
  if (isPlaceholder(body)) return false;
  let lower = false;
  let upper = false;
  let digit = false;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code >= 97 && code <= 122) lower = true;
    else if (code >= 65 && code <= 90) upper = true;
    else if (code >= 48 && code <= 57) digit = true;
  }
  if (Number(lower) + Number(upper) + Number(digit) < 2) return false;
  return distinctCharacters(body) >= Math.min(10, Math.ceil(body.length / 3));
}
