import { ToolError } from '@toolplane/core';
import type { RestFileField } from './config.js';

/** Where a data: URL's header must end (`data:<media type>;<parameters>;base64,`). */
const MAX_DATA_URL_HEADER = 1024;

/** Media types a part header can carry (visible ASCII, with parameters). */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Base64 in either alphabet (standard or URL-safe), padded or not. */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Whitespace that line-wrapped base64 (MIME, PEM) holds. */
const WRAPPING = /[\t\n\r ]+/g;

/** The content of one file part: its bytes (decoded from base64) or its text, and a media type the value gave. */
export interface FileContent {
  readonly content: string | Uint8Array;
  readonly contentType?: string;
}

const notBase64 = (field: string, what: string): ToolError =>
  new ToolError(
    'INVALID_ARGUMENTS',
    `the file field ${JSON.stringify(field.slice(0, 100))} ${what} is not valid base64: pass the file's bytes base64-encoded (A-Z, a-z, 0-9, + and / or - and _, padded with = to a multiple of 4 characters), or as a data: URL such as data:image/png;base64,iVBORw0KGgo...`,
  );

/** The bytes of base64 text (line breaks allowed, either alphabet); anything else is `INVALID_ARGUMENTS` naming the field. */
function decodeBase64(text: string, field: string, what: string): Uint8Array {
  const clean = text.replace(WRAPPING, '');
  const padded = clean.endsWith('=');
  if (!BASE64.test(clean) || clean.length % 4 === 1 || (padded && clean.length % 4 !== 0))
    throw notBase64(field, what);
  return Buffer.from(clean, 'base64');
}

/** A media type parameter (`charset=utf-8`, `name="a b"`). */
const PARAMETER = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+=(?:"[^"]*"|[!#$%&'*+.^_`|~0-9A-Za-z-]+)$/;

/** A data: URL: its media type (when one a part can carry), payload, and whether that is base64. */
interface DataUrl {
  readonly contentType?: string;
  readonly payload: string;
  readonly base64: boolean;
}

/**
 * `data:[<type>][;<parameter>...][;base64],<payload>`, or undefined for any other text. Without
 * `;base64` the header must read as one (a media type or none, `name=value` parameters), so text
 * that merely starts with `data:` (a CSV whose first line is `data: 1,2,3`) stays text.
 */
function dataUrl(text: string): DataUrl | undefined {
  if (text.slice(0, 5).toLowerCase() !== 'data:') return undefined;
  const comma = text.indexOf(',');
  if (comma < 0 || comma > MAX_DATA_URL_HEADER) return undefined;
  const [type = '', ...parameters] = text.slice(5, comma).split(';');
  const mediaType = type.trim();
  const base64 = parameters.at(-1)?.trim().toLowerCase() === 'base64';
  if (!base64) {
    if (mediaType !== '' && !MEDIA_TYPE.test(mediaType)) return undefined;
    if (!parameters.every((parameter) => PARAMETER.test(parameter.trim()))) return undefined;
  }
  return {
    ...(MEDIA_TYPE.test(mediaType) ? { contentType: mediaType } : {}),
    payload: text.slice(comma + 1),
    base64,
  };
}

/** The value of an ASCII hex digit, or -1. */
function hexDigit(code: number | undefined): number {
  if (code === undefined) return -1;
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * The bytes of a data: URL's payload without `;base64`, as a browser reads it: its text as UTF-8,
 * each `%XX` the byte it names. A `%` not followed by two hex digits is `INVALID_ARGUMENTS`
 * naming the field (a browser would keep it as it is, and send what the model did not mean).
 */
function percentDecode(payload: string, field: string): Uint8Array {
  const bytes = Buffer.from(payload, 'utf8');
  const decoded = Buffer.allocUnsafe(bytes.length);
  let length = 0;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] as number;
    if (byte !== 0x25) {
      decoded[length++] = byte;
      continue;
    }
    const high = hexDigit(bytes[index + 1]);
    const low = hexDigit(bytes[index + 2]);
    if (high < 0 || low < 0) {
      const written = bytes.subarray(index, index + 3).toString('utf8');
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `the file field ${JSON.stringify(field.slice(0, 100))} holds a data: URL whose content has ${JSON.stringify(written)}, a % not followed by two hex digits: write a % itself as %25, each other byte as % and its two hex digits, or give the content base64 as data:<type>;base64,...`,
      );
    }
    decoded[length++] = high * 16 + low;
    index += 2;
  }
  return decoded.subarray(0, length);
}

/**
 * What one value of a file field sends: a `data:...;base64,` URL as its decoded bytes, a `data:`
 * URL without `;base64` as its percent-decoded bytes (either with its media type), a field declared `encoding: 'base64'` as the bytes its base64 text decodes to, and
 * any other text as its UTF-8 bytes. Base64 that does not decode is `INVALID_ARGUMENTS` naming the
 * field, never sent as text.
 */
export function fileContent(text: string, field: string, file: RestFileField): FileContent {
  const url = dataUrl(text);
  if (url)
    return {
      content: url.base64
        ? decodeBase64(url.payload, field, 'holds a data: URL whose content')
        : percentDecode(url.payload, field),
      ...(url.contentType ? { contentType: url.contentType } : {}),
    };
  if (file.encoding === 'base64') return { content: decodeBase64(text, field, 'is declared base64 and') };
  return { content: text };
}
