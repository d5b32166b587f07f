import { type ReadAt, readFully } from './read-fully.js';

/**
 * Largest file with a byte order mark that the Node engine decodes (in memory) before searching,
 * as ripgrep does; a larger one is searched as raw bytes (a UTF-16 one then looks binary).
 */
export const DECODE_MAX_BYTES = 64 * 1024 * 1024;

type Encoding = 'utf8' | 'utf16le' | 'utf16be';

function byteOrderMark(head: Buffer): { readonly encoding: Encoding; readonly length: number } | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf8', length: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf16le', length: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf16be', length: 2 };
  return undefined;
}

/**
 * The text of a file that starts with a byte order mark, as UTF-8 without the mark, the way
 * ripgrep sniffs and transcodes it (UTF-8, UTF-16LE, UTF-16BE); undefined for a file without
 * one, or one over {@link DECODE_MAX_BYTES}. `head` holds the file's first bytes (all of them
 * when it is at least `size` long). Unpaired surrogates become U+FFFD.
 */
export function decodeWithByteOrderMark(fd: number, head: Buffer, size: number): Buffer | undefined {
  const mark = byteOrderMark(head);
  if (mark === undefined || size > DECODE_MAX_BYTES) return undefined;
  let bytes: Buffer;
  if (head.length >= size) {
    bytes = head.subarray(mark.length, size);
  } else {
    const whole = Buffer.allocUnsafe(size);
    bytes = whole.subarray(mark.length, readFully(fd, whole, 0, size, 0));
  }
  // Always a copy: `head` is the search's read buffer, reused for the decoded text's chunks.
  if (mark.encoding === 'utf8') return Buffer.from(bytes);
  const even = bytes.subarray(0, bytes.length - (bytes.length % 2));
  const units = Buffer.from(even);
  if (mark.encoding === 'utf16be') units.swap16();
  const text = units.toString('utf16le') + (even.length < bytes.length ? '\ufffd' : '');
  return Buffer.from(text, 'utf8'); // which writes an unpaired surrogate as U+FFFD
}

/** A {@link ReadAt} over bytes in memory. */
export function memoryReader(bytes: Buffer): ReadAt {
  return (buffer, offset, length, position) =>
    position >= bytes.length
      ? 0
      : bytes.copy(buffer, offset, position, Math.min(bytes.length, position + length));
}
