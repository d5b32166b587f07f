import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { ReadBody } from './response.js';

/**
 * Undoes a `content-encoding` (gzip, deflate, br) that a server applied, with the byte cap
 * applied to the decoded size too, so a small compressed body cannot expand without bound.
 * Unknown encodings are left as they are (and reported as binary).
 */
export function decodeContent(read: ReadBody, encoding: string | undefined, maxBytes: number): ReadBody {
  const name = encoding?.trim().toLowerCase();
  if (!name || name === 'identity' || read.overflow || read.bytes.length === 0) return read;
  const options = { maxOutputLength: maxBytes };
  try {
    if (name === 'gzip' || name === 'x-gzip')
      return { bytes: gunzipSync(read.bytes, options), overflow: false };
    if (name === 'deflate') return { bytes: inflateSync(read.bytes, options), overflow: false };
    if (name === 'br') return { bytes: brotliDecompressSync(read.bytes, options), overflow: false };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
      return { bytes: Buffer.alloc(0), overflow: true };
    throw error;
  }
  return read;
}

/** Text of a body in the charset its content type names (UTF-8 when none or unknown). */
export function bodyText(bytes: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset="?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (!charset || charset === 'utf-8' || charset === 'utf8') return bytes.toString('utf8');
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}
