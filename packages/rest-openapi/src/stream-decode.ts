import { type Readable, type Transform, pipeline } from 'node:stream';
import { ToolError } from '@toolplane/core';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** A streamed body with its `content-encoding` undone as it arrives. */
export interface DecodedStream {
  readonly body: Readable;
  /** Whether a decoder failed (the bytes are not what the encoding says). */
  broken(): boolean;
}

/**
 * Undoes a streamed body's `content-encoding` (gzip, deflate, br, or a list, last applied first)
 * as it arrives, as {@link decodeContent} does for a whole body; the caller's byte cap then counts
 * decoded bytes, so a small compressed stream cannot expand without bound. An encoding this
 * client cannot undo is `EXECUTION_FAILED` naming it: the encoded bytes hold no event.
 */
export function decodeStream(body: Readable, encoding: string | undefined, target: string): DecodedStream {
  const names = (encoding ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity');
  if (names.length === 0) return { body, broken: () => false };
  const unknown = names.find((name) => !Object.hasOwn(DECODERS, name));
  if (unknown !== undefined) {
    body.on('error', () => undefined);
    body.destroy();
    throw new ToolError(
      'EXECUTION_FAILED',
      `${target} streamed its answer with content-encoding: ${encoding?.slice(0, 100)}, and ${unknown.slice(0, 40)} is not an encoding this client undoes (gzip, deflate or br); the server or a proxy in between is misconfigured`,
    );
  }
  let failed = false;
  const decoders = names.reverse().map((name) => {
    const decoder = (DECODERS[name] as () => Transform)();
    decoder.on('error', (error: { code?: unknown }) => {
      // zlib's own errors (Z_DATA_ERROR, brotli's ERR__ERROR_...), not a lost connection passed on
      if (typeof error.code === 'string' && /^(Z_|ERR__ERROR)/.test(error.code)) failed = true;
    });
    return decoder;
  });
  // pipeline destroys every stage when one fails or the last is destroyed (the cap, the done event)
  const decoded = (pipeline as (...streams: unknown[]) => Readable)(body, ...decoders, () => undefined);
  return { body: decoded, broken: () => failed };
}
