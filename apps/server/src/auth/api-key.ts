import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'tpk_';

/** A new key: 32 random bytes, so a plain sha-256 of it cannot be reversed by guessing. */
export function generateApiKey(): string {
  return `${PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What the database keeps of a key: its sha-256, never the key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether a string has the shape of a key (checked before any lookup). */
export function looksLikeApiKey(text: string): boolean {
  return text.startsWith(PREFIX) && /^[A-Za-z0-9_-]{43}$/.test(text.slice(PREFIX.length));
}
