import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ToolError } from '@toolplane/core';

/** Seals and opens stored secrets (custom-tool environments, MCP server configs). */
export interface Cipher {
  seal(plain: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1';

/**
 * AES-256-GCM with a fresh 96-bit nonce per value; the stored form is
 * `v1.<nonce>.<tag>.<ciphertext>` in base64url, so a tampered value fails to open.
 */
export function createCipher(key: Buffer): Cipher {
  if (key.length !== 32)
    throw new ToolError('CONFIG_INVALID', `the secret key must be 32 bytes, got ${key.length}`);
  return {
    seal(plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, nonce, cipher.getAuthTag(), body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, nonce, tag, body] = sealed.split('.');
      if (version !== VERSION || nonce === undefined || tag === undefined || body === undefined)
        throw new ToolError('INTERNAL', 'a stored secret is not in the v1 sealed form');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch (cause) {
        throw new ToolError(
          'INTERNAL',
          'a stored secret does not open with this secret key: start the server with the key it was sealed with',
          { cause },
        );
      }
    },
  };
}
