import { ToolError, errorMessage } from '@toolplane/core';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { ReadBody } from './response.js';

const DECODERS: Readonly<Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * Undoes a `content-encoding` (gzip, deflate, br, or a list of them, last applied first) that a
 * server applied, with the byte cap applied to each decoded layer too, so a small compressed
 * body cannot expand without bound. An encoding it cannot undo (`zstd`, `compress`) throws: the
 * encoded bytes are no answer.
 */
export function decodeContent(read: ReadBody, encoding: string | undefined, maxBytes: number): ReadBody {
  const names = (encoding ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity');
  if (names.length === 0 || read.overflow || read.bytes.length === 0) return read;
  const options = { maxOutputLength: maxBytes };
  let bytes = read.bytes;
  for (const name of names.reverse()) {
    const decode = DECODERS[name];
    if (!Object.hasOwn(DECODERS, name) || decode === undefined)
      throw new Error(`${name.slice(0, 40)} is not an encoding this client undoes (gzip, deflate or br)`);
    try {
      bytes = decode(bytes, options);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
        return { bytes: Buffer.alloc(0), overflow: true };
      throw error;
    }
  }
  return { bytes, overflow: false };
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
      `${target} answered with content-encoding: ${encoding?.slice(0, 100)} but its body does not decode (${errorMessage(error)}); the server or a proxy in between is misconfigured`,
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
