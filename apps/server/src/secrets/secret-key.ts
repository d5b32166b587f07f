import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ToolError } from '@toolplane/core';

/** Where the 32-byte secret key comes from. */
export interface SecretKeySource {
  /** Base64 of 32 bytes (`TOOLPLANE_SECRET_KEY`); wins over the file. */
  readonly value?: string;
  /** A key file, created with mode 0600 on first run when missing. */
  readonly file: string;
}

function decode(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32)
    throw new ToolError(
      'CONFIG_INVALID',
      `${where} must be 32 random bytes in base64 (for example \`openssl rand -base64 32\`), got ${key.length} bytes`,
    );
  return key;
}

/** Reads the secret key, creating the key file (mode 0600) when there is none yet. */
export function loadSecretKey(source: SecretKeySource): { key: Buffer; created: boolean } {
  if (source.value !== undefined)
    return { key: decode(source.value, 'TOOLPLANE_SECRET_KEY'), created: false };
  try {
    return { key: decode(readFileSync(source.file, 'utf8'), source.file), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(source.file), { recursive: true });
  const key = randomBytes(32);
  // `wx`: two servers starting at once never overwrite each other's key
  writeFileSync(source.file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return { key, created: true };
}
