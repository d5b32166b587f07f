import { ToolError, errorMessage } from '@toolplane/core';
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

/**
 * {@link decodeContent} for a response: a body that does not decode is the server's fault. On an
 * error status the raw body is kept (the status says what went wrong); on a success it is an
 * `EXECUTION_FAILED` that says so, rather than a zlib message.
 */
export function decodeResponse(
  read: ReadBody,
  encoding: string | undefined,
  maxBytes: number,
  status: number,
  target: string,
): ReadBody {
  try {
    return decodeContent(read, encoding, maxBytes);
  } catch (error) {
    if (status < 200 || status >= 300) return read;
    throw new ToolError(
      'EXECUTION_FAILED',
      `${target} answered with content-encoding: ${encoding} but its body does not decode (${errorMessage(error)}); the server or a proxy in between is misconfigured`,
    );
  }
}

/** Text of a body in the charset its content type names (UTF-8 when none or unknown). */
export function bodyText(bytes: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset="?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (!charset || charset === 'utf-8' || charset === 'utf8') {
    // a byte order mark is not part of the text (and would make JSON.parse fail)
    const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    return bytes.toString('utf8', start);
  }
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}
