/** Alphabets of common credential formats. */
export const ALPHABETS = {
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  upperDigits: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  letters: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  hex: '0123456789abcdef',
  base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  base64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  digits: '0123456789',
} as const;

/** Whether a UTF-16 code is a character of standard base64 (`A-Z a-z 0-9 + /`) or its `=` padding. */
export function isBase64Code(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 43 ||
    code === 47 ||
    code === 61
  );
}

/** Random strings for generated fake credentials (tests, benchmarks, rule samples). */
export interface FakeSource {
  /** `length` random characters of `alphabet`, with at least two character classes when possible. */
  chars(alphabet: string, length: number): string;
  /** Base64 of `bytes` random bytes. */
  base64(bytes: number): string;
  /** Base64url (no padding) of a UTF-8 string. */
  base64url(text: string): string;
}
