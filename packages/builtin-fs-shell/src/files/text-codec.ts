import { ToolError } from '@toolplane/core';

/** How a text file was stored, so an edit writes it back the same way. */
export type TextEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be' | 'latin1';

/** A decoded text file. */
export interface DecodedText {
  readonly text: string;
  readonly encoding: TextEncoding;
  /** The dominant line ending. */
  readonly eol: '\n' | '\r\n';
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes file bytes: UTF-8 (with or without BOM), UTF-16 (LE or BE) with BOM, else Latin-1
 * byte for byte.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  let text: string;
  let encoding: TextEncoding;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    text = strictUtf8.decode(bytes.subarray(3));
    encoding = 'utf8-bom';
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    text = Buffer.from(bytes.subarray(2)).toString('utf16le');
    encoding = 'utf16le';
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    // Big-endian: swap each pair into little-endian order (a last odd byte is dropped, as
    // the little-endian decoder does).
    const body = Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1)));
    text = body.swap16().toString('utf16le');
    encoding = 'utf16be';
  } else {
    try {
      text = strictUtf8.decode(bytes);
      encoding = 'utf8';
    } catch {
      text = Buffer.from(bytes).toString('latin1');
      encoding = 'latin1';
    }
  }
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return { text, encoding, eol: crlf > lf ? '\r\n' : '\n' };
}

/** Encodes text the way {@link decodeText} found it. */
export function encodeText(text: string, encoding: TextEncoding): Buffer {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(text, 'utf8');
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be':
      return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    case 'latin1':
      return Buffer.from(text, 'latin1');
  }
}

// With the u flag a class of surrogates matches only unpaired ones.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * Where `text` holds half of a UTF-16 surrogate pair (JSON can carry `"\ud800"`), or -1. UTF-8
 * cannot store one: it would be written as U+FFFD, silently changing the text.
 */
export function loneSurrogateAt(text: string): number {
  return LONE_SURROGATE.exec(text)?.index ?? -1;
}

/** Refuses text argument `argument` when it holds a lone surrogate (see {@link loneSurrogateAt}). */
export function assertStorableText(text: string, argument: string): void {
  const at = loneSurrogateAt(text);
  if (at === -1) return;
  throw new ToolError(
    'INVALID_ARGUMENTS',
    `${argument} holds half of a UTF-16 surrogate pair (U+${text.charCodeAt(at).toString(16).toUpperCase()} at character ${at}), which a UTF-8 file cannot store; send the whole character or remove it`,
  );
}

/**
 * True when every character of `text` fits the encoding: Latin-1 holds only U+0000..U+00FF,
 * UTF-8 no lone surrogate; UTF-16 holds anything.
 */
export function fitsEncoding(text: string, encoding: TextEncoding): boolean {
  if (encoding === 'utf16le' || encoding === 'utf16be') return true;
  if (encoding !== 'latin1') return loneSurrogateAt(text) === -1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}
