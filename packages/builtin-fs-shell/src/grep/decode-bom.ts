import { type ReadAt, readFully } from './read-fully.js';

/** Bytes of a UTF-16 file decoded at a time. */
const SOURCE_CHUNK_BYTES = 1024 * 1024;

type Encoding = 'utf8' | 'utf16le' | 'utf16be';

/** A byte order mark at a file's start. */
export interface ByteOrderMark {
  readonly encoding: Encoding;
  readonly length: number;
}

/** The byte order mark `head` (a file's first bytes) starts with, if any. */
export function byteOrderMark(head: Buffer): ByteOrderMark | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf8', length: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf16le', length: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf16be', length: 2 };
  return undefined;
}

/** The text of a file with a byte order mark: how to read it, and a bound on its length. */
export interface DecodedText {
  readonly readAt: ReadAt;
  /** At least the text's length in bytes (exact for UTF-8; UTF-16 is known once decoded). */
  readonly sizeBound: number;
}

/**
 * The text of a file that starts with a byte order mark, as UTF-8 without the mark, the way
 * ripgrep sniffs and transcodes it (UTF-8, UTF-16LE, UTF-16BE): a UTF-8 file is read past its
 * mark as it is; a UTF-16 one is decoded as it is read (unpaired surrogates, and an odd last
 * byte, become U+FFFD), so a file of any size is searched in the memory of about one read.
 */
export function decodedText(fd: number, mark: ByteOrderMark, size: number): DecodedText {
  if (mark.encoding === 'utf8') {
    return {
      readAt: (buffer, offset, length, position) => readFully(fd, buffer, offset, length, position + 3),
      sizeBound: size - 3,
    };
  }
  // Each 2-byte unit becomes at most 3 bytes of UTF-8 (a pair of them 4), an odd last byte 3.
  const units = Math.ceil((size - mark.length) / 2);
  return { readAt: utf16Reader(fd, mark.encoding), sizeBound: units * 3 };
}

/**
 * A {@link ReadAt} over a UTF-16 file's text in UTF-8. It holds the decoded bytes from the
 * last position asked for on: reads go forward through the file (a search's chunks, and the
 * replay of ripgrep's reads that finds where a NUL cuts a file); a read before what it holds
 * starts the decoding again from the file's start.
 */
function utf16Reader(fd: number, encoding: 'utf16le' | 'utf16be'): ReadAt {
  let decoder = new TextDecoder(encoding === 'utf16le' ? 'utf-16le' : 'utf-16be');
  const source = Buffer.allocUnsafe(SOURCE_CHUNK_BYTES);
  let sourceAt = 2;
  let ended = false;
  let held: Buffer = Buffer.alloc(0);
  let heldStart = 0;

  const restart = (): void => {
    decoder = new TextDecoder(encoding === 'utf16le' ? 'utf-16le' : 'utf-16be');
    sourceAt = 2;
    ended = false;
    held = Buffer.alloc(0);
    heldStart = 0;
  };
  /** Decodes one more chunk of the file; the UTF-8 bytes (empty at the end). */
  const decodeMore = (): Buffer => {
    const read = readFully(fd, source, 0, source.length, sourceAt);
    sourceAt += read;
    if (read === 0) ended = true;
    const text = read === 0 ? decoder.decode() : decoder.decode(source.subarray(0, read), { stream: true });
    return Buffer.from(text, 'utf8');
  };

  return (buffer, offset, length, position) => {
    if (position < heldStart) restart();
    // Chunks are gathered and joined once: what is held before `position` is let go.
    const pieces: Buffer[] = [held.subarray(Math.max(0, Math.min(held.length, position - heldStart)))];
    let start = heldStart + held.length - (pieces[0] as Buffer).length;
    let end = heldStart + held.length;
    while (end < position + length && !ended) {
      const bytes = decodeMore();
      end += bytes.length;
      if (end <= position) {
        pieces.length = 0;
        start = end;
      } else {
        pieces.push(bytes);
      }
    }
    held = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
    heldStart = start;
    const from = position - heldStart;
    if (from >= held.length) return 0;
    return held.copy(buffer, offset, from, Math.min(held.length, from + length));
  };
}
