import { setImmediate as nextTurn } from 'node:timers/promises';
import { createHtmlConverter } from './html-to-text.js';

/** Output formats of `web_fetch`. */
export type WebFormat = 'markdown' | 'text' | 'html';

/** The media type (lower case, no parameters) and charset of a Content-Type header. */
export function parseContentType(header: string): { mediaType: string; charset: string | undefined } {
  const [type, ...parameters] = header.split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset' && value) charset = value.trim().replace(/^"|"$/g, '');
  }
  return { mediaType: (type ?? '').trim().toLowerCase(), charset };
}

/** The WHATWG name of the encoding a charset label stands for, or undefined when none does. */
export function encodingOf(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

/** The encoding a byte order mark at the start of the body names. */
function bomEncoding(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return undefined;
}

const META_CHARSET = /<meta\b[^>]*?charset\s*=\s*["']?([\w.:-]{1,40})/gi;

/**
 * The first encoding a `<meta>` tag within the document's first 2 KiB declares
 * (`<meta charset>` or the `http-equiv` form), passing over names no decoder knows. A tag read
 * as ASCII cannot be right about UTF-16: that is taken as UTF-8, and `x-user-defined` as
 * windows-1252, as browsers do.
 */
export function metaEncoding(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString('latin1');
  for (const match of head.matchAll(META_CHARSET)) {
    const encoding = encodingOf(match[1]);
    if (encoding === undefined) continue;
    if (encoding === 'utf-16le' || encoding === 'utf-16be') return 'utf-8';
    return encoding === 'x-user-defined' ? 'windows-1252' : encoding;
  }
  return undefined;
}

/**
 * The encoding of a body, in the order browsers use: a byte order mark, then the charset of
 * the Content-Type header, then (HTML) a `<meta>` declaration, then UTF-8. A label no decoder
 * knows counts as absent.
 */
export function pickEncoding(body: Buffer, headerCharset: string | undefined, html: boolean): string {
  return bomEncoding(body) ?? encodingOf(headerCharset) ?? (html ? metaEncoding(body) : undefined) ?? 'utf-8';
}

/**
 * What windows-1252 puts at bytes 0x80-0x9F (WHATWG index-windows-1252), where it differs from
 * Latin-1. Node 20.18.3 and later decode windows-1252 as Latin-1 (nodejs/node#60888), which
 * turns the curly quotes, dashes and euro signs of pages labelled iso-8859-1 or windows-1252
 * into control characters, so that range is mapped here.
 */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

/**
 * The body as windows-1252, through a table of UTF-16 code units decoded as one UTF-16LE
 * buffer: a `replace` with a function per byte took 1.9 s for 5 MB of bytes 0x80-0x9F,
 * holding the event loop; this is a pass over the bytes.
 */
function decodeWindows1252(body: Buffer): string {
  const units = new Uint16Array(body.length);
  for (let index = 0; index < body.length; index++) {
    const byte = body[index] as number;
    units[index] = byte >= 0x80 && byte <= 0x9f ? (WINDOWS_1252_HIGH[byte - 0x80] as number) : byte;
  }
  return Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le');
}

/** Decodes a body in an encoding from {@link pickEncoding} (a byte order mark for it is dropped). */
export function decodeBody(body: Buffer, encoding: string): string {
  if (encoding === 'windows-1252') return decodeWindows1252(body);
  try {
    return new TextDecoder(encoding).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** True for media types shown as text. */
export function isTextual(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    mediaType === 'application/json' ||
    mediaType.endsWith('+json') ||
    mediaType === 'application/xml' ||
    mediaType.endsWith('+xml') ||
    mediaType === 'application/javascript' ||
    mediaType === 'application/x-javascript' ||
    mediaType === 'application/yaml' ||
    mediaType === 'application/x-yaml' ||
    mediaType === 'application/x-ndjson'
  );
}

/** True for HTML documents. */
export function isHtml(mediaType: string): boolean {
  return mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
}

/**
 * Characters of a page given to the converter at a time. A page up to this long is converted
 * in one go; a longer one in slices, with a turn of the event loop between them, so that
 * converting a 5 MB page (a second or more of work) never holds other calls for more than a
 * slice (a few milliseconds), and the call's signal is looked at between slices.
 */
export const HTML_SLICE_CHARS = 16 * 1024;

/** Gives the event loop a turn, then throws the signal's reason if it aborted meanwhile. */
async function yieldTurn(signal: AbortSignal): Promise<void> {
  await nextTurn();
  signal.throwIfAborted();
}

/**
 * Readable text of an HTML document: markdown (links, headings, lists kept), plain text, or the
 * markup as is; the first `keep` characters of it and its whole length. Rejects with the
 * signal's reason when it aborts during the conversion.
 */
export async function htmlToReadable(
  html: string,
  format: WebFormat,
  keep: number,
  signal: AbortSignal,
): Promise<{ text: string; length: number }> {
  if (format === 'html') return { text: html.slice(0, keep), length: html.length };
  const converter = createHtmlConverter(format === 'markdown', keep);
  for (let at = 0; at < html.length; ) {
    if (at > 0) await yieldTurn(signal);
    let end = Math.min(html.length, at + HTML_SLICE_CHARS);
    // A surrogate pair stays in one slice.
    if (end < html.length && html.charCodeAt(end - 1) >= 0xd800 && html.charCodeAt(end - 1) <= 0xdbff) end--;
    converter.write(html.slice(at, end));
    at = end;
    while (converter.writeSome()) await yieldTurn(signal);
  }
  return converter.end();
}
