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

/** True when `value` reads like a placeholder, template or well-known example, not a credential. */
export function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase();
  if (PLACEHOLDER_VALUES.has(lower)) return true;
  for (const word of PLACEHOLDER_WORDS) if (lower.includes(word)) return true;
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
