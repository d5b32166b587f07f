import { ToolError } from '@toolplane/core';
import type { RestParameterBinding } from './config.js';
import {
  COLLECTION_SEPARATORS,
  definedEntries,
  definedItems,
  encodeStrict,
  isPlainObject,
  scalarText,
} from './encoding.js';

/** Throws when a header value holds CR, LF or NUL (header injection). */
export function refuseLineBreaks(
  value: string,
  what: string,
  code: 'INVALID_ARGUMENTS' | 'CONFIG_INVALID',
): void {
  if (/[\r\n\0]/.test(value)) {
    throw new ToolError(
      code,
      code === 'INVALID_ARGUMENTS'
        ? `${what} contains CR, LF or NUL, which could inject headers; pass a value on one line`
        : `${what} contains CR, LF or NUL after expansion; fix the configuration or the environment`,
    );
  }
}

// what undici (and HTTP) accept in a header value: tab, visible ASCII, space, and bytes 0x80-0xFF
const UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]/;

/** Throws `INVALID_ARGUMENTS` when a header value built from arguments has characters HTTP cannot carry. */
export function refuseUnsendable(value: string, what: string): void {
  if (UNSENDABLE.test(value)) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${what} contains characters a header cannot carry (control characters, or characters beyond U+00FF such as most non-Latin letters and emoji); pass plain Latin-1 text`,
    );
  }
}

/** A header argument in OpenAPI `simple` style. */
export function headerText(value: unknown, binding: RestParameterBinding): string {
  if (binding.json) return JSON.stringify(value);
  const explode = binding.explode ?? false;
  if (Array.isArray(value))
    return definedItems(value)
      .map(scalarText)
      .join((binding.collectionFormat && COLLECTION_SEPARATORS[binding.collectionFormat]) || ',');
  if (isPlainObject(value))
    return definedEntries(value)
      .map(([key, item]) => (explode ? `${key}=${scalarText(item)}` : `${key},${scalarText(item)}`))
      .join(',');
  return scalarText(value);
}

/** Cookie pairs in OpenAPI `form` style (the only cookie style). */
export function cookiePairs(name: string, value: unknown, binding: RestParameterBinding): string[] {
  const key = encodeStrict(name);
  if (binding.json) return [`${key}=${encodeStrict(JSON.stringify(value))}`];
  const explode = binding.explode ?? false;
  if (Array.isArray(value)) {
    const items = definedItems(value).map((item) => encodeStrict(scalarText(item)));
    return explode ? items.map((item) => `${key}=${item}`) : [`${key}=${items.join(',')}`];
  }
  if (isPlainObject(value)) {
    const entries = definedEntries(value).map(([field, item]) => [
      encodeStrict(field),
      encodeStrict(scalarText(item)),
    ]);
    return explode
      ? entries.map(([field, item]) => `${field}=${item}`)
      : [`${key}=${entries.flat().join(',')}`];
  }
  return [`${key}=${encodeStrict(scalarText(value))}`];
}
