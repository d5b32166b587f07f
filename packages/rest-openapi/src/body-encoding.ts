import { ToolError } from '@toolplane/core';
import { FormData } from 'undici';
import type { RestBodyBinding, RestFileField } from './config.js';
import { fileContent } from './file-content.js';
import { COLLECTION_SEPARATORS, definedItems, encodeStrict, isPlainObject, scalarText } from './encoding.js';

/** A lone surrogate: with the `u` flag a surrogate pair is one code point and does not match. */
const LONE_SURROGATE = /\p{Cs}/u;

/** A lone UTF-16 surrogate bound for the body. */
const loneSurrogate = (): ToolError =>
  new ToolError(
    'INVALID_ARGUMENTS',
    'the request body contains a lone UTF-16 surrogate (not valid Unicode text, such as half an emoji); pass well-formed text',
  );

/**
 * `text` when it is valid Unicode; a lone UTF-16 surrogate is `INVALID_ARGUMENTS`: a text or
 * multipart body would carry U+FFFD in its place, changing the value silently.
 */
export function wellFormedBody(text: string): string {
  if (LONE_SURROGATE.test(text)) throw loneSurrogate();
  return text;
}

/** Which fields go as files, and which lists go as one field joined by a collection format. */
type BodyFields = Pick<RestBodyBinding, 'files' | 'collectionFormats'>;

/** A list field sent as one value, joined as its collection format says; undefined when it goes one field per item. */
function joinedList(items: readonly unknown[], key: string, fields: BodyFields): string | undefined {
  const format =
    fields.collectionFormats && Object.hasOwn(fields.collectionFormats, key)
      ? fields.collectionFormats[key]
      : undefined;
  const joiner = format && COLLECTION_SEPARATORS[format];
  return joiner ? definedItems(items).map(scalarText).join(joiner) : undefined;
}

function encodeForm(value: unknown, fields: BodyFields): string {
  try {
    return encodeFormPairs(value, fields);
  } catch (error) {
    // encodeStrict speaks of the URL; here the text is bound for the body
    if (ToolError.isInstance(error) && error.code === 'INVALID_ARGUMENTS') throw loneSurrogate();
    throw error;
  }
}

function encodeFormPairs(value: unknown, fields: BodyFields): string {
  if (!isPlainObject(value)) return encodeStrict(scalarText(value));
  const pairs: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    const joined = Array.isArray(item) ? joinedList(item, key, fields) : undefined;
    if (joined !== undefined) pairs.push(`${encodeStrict(key)}=${encodeStrict(joined)}`);
    else if (Array.isArray(item))
      for (const part of definedItems(item))
        pairs.push(`${encodeStrict(key)}=${encodeStrict(scalarText(part))}`);
    else pairs.push(`${encodeStrict(key)}=${encodeStrict(scalarText(item))}`);
  }
  return pairs.join('&');
}

/** Control characters, which a filename may not hold (servers write them into headers and paths). */
const NOT_IN_FILENAME = /\p{Cc}/gu;

/** The longest filename sent, in characters (what common file systems take). */
const MAX_FILENAME = 255;

/**
 * The filename of a file part: the last part of `given` (a path is cut at `/` and `\\`) without
 * control characters, at most its last 255 characters, or the field's name when that leaves
 * nothing usable (empty, `.`, `..`).
 */
export function safeFilename(given: unknown, field: string): string {
  const text = typeof given === 'string' || typeof given === 'number' ? String(given) : '';
  const last = text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1);
  // at most 255 characters, as file systems take: the end, which holds the extension
  const clean = Array.from(last.replace(NOT_IN_FILENAME, ' ').trim()).slice(-MAX_FILENAME).join('');
  if (clean !== '' && clean !== '.' && clean !== '..') return wellFormedBody(clean);
  const fallback = field.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return fallback === '' ? 'file' : fallback;
}

function multipart(value: unknown, fields: BodyFields): FormData {
  const files: Readonly<Record<string, RestFileField>> = fields.files ?? {};
  const form = new FormData();
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || item === null) continue;
      const name = wellFormedBody(key);
      const file = Object.hasOwn(files, key) ? files[key] : undefined;
      const append = (part: unknown): void => {
        const text = wellFormedBody(scalarText(part));
        if (!file) {
          form.append(name, text);
          return;
        }
        const filename = safeFilename(
          file.filenameField === undefined ? undefined : value[file.filenameField],
          key,
        );
        const { content, contentType } = fileContent(text, key, file);
        const type = file.contentType ?? contentType ?? 'application/octet-stream';
        form.append(name, new Blob([content], { type }), filename);
      };
      const joined = Array.isArray(item) ? joinedList(item, key, fields) : undefined;
      if (joined !== undefined) append(joined);
      else if (Array.isArray(item)) for (const part of definedItems(item)) append(part);
      else append(item);
    }
  } else form.append('value', wellFormedBody(scalarText(value)));
  return form;
}

/** True for `application/json` and `+json` types. */
export function isJsonType(contentType: string): boolean {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return base === 'application/json' || base.endsWith('+json');
}

/** A body argument encoded for its content type (JSON, URL-encoded form, multipart, text). */
export function encodeBody(
  value: unknown,
  contentType: string,
  fields: BodyFields = {},
): { body: string | FormData; contentType?: string } {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (isJsonType(contentType)) return { body: JSON.stringify(value), contentType };
  if (base === 'application/x-www-form-urlencoded') return { body: encodeForm(value, fields), contentType };
  // FormData sets its own content type with the boundary.
  if (base === 'multipart/form-data') return { body: multipart(value, fields) };
  return { body: wellFormedBody(scalarText(value)), contentType };
}
