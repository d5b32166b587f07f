import { ToolError } from '@toolplane/core';
import { FormData } from 'undici';
import { definedItems, encodeStrict, isPlainObject, scalarText } from './encoding.js';

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

function encodeForm(value: unknown): string {
  try {
    return encodeFormPairs(value);
  } catch (error) {
    // encodeStrict speaks of the URL; here the text is bound for the body
    if (ToolError.isInstance(error) && error.code === 'INVALID_ARGUMENTS') throw loneSurrogate();
    throw error;
  }
}

function encodeFormPairs(value: unknown): string {
  if (!isPlainObject(value)) return encodeStrict(scalarText(value));
  const pairs: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    if (Array.isArray(item))
      for (const part of definedItems(item))
        pairs.push(`${encodeStrict(key)}=${encodeStrict(scalarText(part))}`);
    else pairs.push(`${encodeStrict(key)}=${encodeStrict(scalarText(item))}`);
  }
  return pairs.join('&');
}

function multipart(value: unknown): FormData {
  const form = new FormData();
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || item === null) continue;
      const name = wellFormedBody(key);
      if (Array.isArray(item))
        for (const part of definedItems(item)) form.append(name, wellFormedBody(scalarText(part)));
      else form.append(name, wellFormedBody(scalarText(item)));
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
): { body: string | FormData; contentType?: string } {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (isJsonType(contentType)) return { body: JSON.stringify(value), contentType };
  if (base === 'application/x-www-form-urlencoded') return { body: encodeForm(value), contentType };
  // FormData sets its own content type with the boundary.
  if (base === 'multipart/form-data') return { body: multipart(value) };
  return { body: wellFormedBody(scalarText(value)), contentType };
}
