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

/** Random strings for generated fake credentials (tests, benchmarks, rule samples). */
export interface FakeSource {
  /** `length` random characters of `alphabet`, with at least two character classes when possible. */
  chars(alphabet: string, length: number): string;
  /** Base64 of `bytes` random bytes. */
  base64(bytes: number): string;
  /** Base64url (no padding) of a UTF-8 string. */
  base64url(text: string): string;
}
