import { FormData } from 'undici';
import { encodeStrict, isPlainObject, scalarText } from './encoding.js';

function encodeForm(value: unknown): string {
  if (!isPlainObject(value)) return encodeStrict(scalarText(value));
  const pairs: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    if (Array.isArray(item))
      for (const part of item) pairs.push(`${encodeStrict(key)}=${encodeStrict(scalarText(part))}`);
    else pairs.push(`${encodeStrict(key)}=${encodeStrict(scalarText(item))}`);
  }
  return pairs.join('&');
}

function multipart(value: unknown): FormData {
  const form = new FormData();
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || item === null) continue;
      if (Array.isArray(item)) for (const part of item) form.append(key, scalarText(part));
      else form.append(key, scalarText(item));
    }
  } else form.append('value', scalarText(value));
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
  return { body: scalarText(value), contentType };
}
