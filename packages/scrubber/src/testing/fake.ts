import { randomBytes } from 'node:crypto';
import { ALPHABETS, type FakeSource } from '../alphabets.js';

export { ALPHABETS, type FakeSource };

function hasTwoClasses(value: string): boolean {
  let classes = 0;
  if (/[a-z]/.test(value)) classes++;
  if (/[A-Z]/.test(value)) classes++;
  if (/[0-9]/.test(value)) classes++;
  return classes >= 2;
}

/**
 * A {@link FakeSource} backed by `crypto.randomBytes`. Fakes are made at run time so no
 * credential-shaped string is ever committed.
 *
 * @example
 * const token = `ghp_${createFakeSource().chars(ALPHABETS.alnum, 36)}`;
 */
export function createFakeSource(): FakeSource {
  const chars = (alphabet: string, length: number): string => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const bytes = randomBytes(length);
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[(bytes[i] as number) % alphabet.length];
      if (length < 8 || hasTwoClasses(out) || !hasTwoClasses(alphabet)) return out;
    }
    return chars(alphabet, length);
  };
  return {
    chars,
    base64: (bytes) => randomBytes(bytes).toString('base64'),
    base64url: (text) => Buffer.from(text, 'utf8').toString('base64url'),
  };
}
