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

/** `data:<type>;...;base64,<payload>`: its media type (when one a part can carry) and payload; undefined for any other text. */
function dataUrl(text: string): { readonly contentType?: string; readonly payload: string } | undefined {
  if (text.slice(0, 5).toLowerCase() !== 'data:') return undefined;
  const comma = text.indexOf(',');
  if (comma < 0 || comma > MAX_DATA_URL_HEADER) return undefined;
  const [type = '', ...parameters] = text.slice(5, comma).split(';');
  if (parameters.at(-1)?.trim().toLowerCase() !== 'base64') return undefined;
  const mediaType = type.trim();
  return {
    ...(MEDIA_TYPE.test(mediaType) ? { contentType: mediaType } : {}),
    payload: text.slice(comma + 1),
  };
}

/**
 * What one value of a file field sends: a `data:...;base64,` URL as its decoded bytes (with its
 * media type), a field declared `encoding: 'base64'` as the bytes its base64 text decodes to, and
 * any other text as its UTF-8 bytes. Base64 that does not decode is `INVALID_ARGUMENTS` naming the
 * field, never sent as text.
 */
export function fileContent(text: string, field: string, file: RestFileField): FileContent {
  const url = dataUrl(text);
  if (url)
    return {
      content: decodeBase64(url.payload, field, 'holds a data: URL whose content'),
      ...(url.contentType ? { contentType: url.contentType } : {}),
    };
  if (file.encoding === 'base64') return { content: decodeBase64(text, field, 'is declared base64 and') };
  return { content: text };
}
