import { ToolError } from '@toolplane/core';

const UNRESERVED = /^[A-Za-z0-9\-._~]*$/;

/**
 * Percent-encodes everything outside RFC 3986 "unreserved" (`A-Z a-z 0-9 - . _ ~`), so a value
 * can never add a path segment, a query, a fragment or user info.
 */
export function encodeStrict(value: string): string {
  if (UNRESERVED.test(value)) return value;
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    // URIError: a lone UTF-16 surrogate, which has no UTF-8 form
    throw new ToolError(
      'INVALID_ARGUMENTS',
      'a value for the URL contains a lone UTF-16 surrogate (not valid Unicode text); pass well-formed text',
    );
  }
  return encoded.replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

// Reserved characters a query value may keep with allowReserved; `&`, `=`, `#` and `+` stay
// encoded because they would split the query or change its meaning.
const KEEP_RESERVED: Readonly<Record<string, string>> = {
  '%3A': ':',
  '%2F': '/',
  '%3F': '?',
  '%5B': '[',
  '%5D': ']',
  '%40': '@',
  '%21': '!',
  '%24': '$',
  '%27': "'",
  '%28': '(',
  '%29': ')',
  '%2A': '*',
  '%2C': ',',
  '%3B': ';',
};

/** Like {@link encodeStrict} but keeps reserved characters that cannot split a query. */
export function encodeAllowReserved(value: string): string {
  return encodeStrict(value).replace(
    /%(3A|2F|3F|5B|5D|40|21|24|27|28|29|2A|2C|3B)/g,
    (hex) => KEEP_RESERVED[hex] ?? hex,
  );
}

/** The text of a scalar argument on the wire. */
export function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value === null) return 'null';
  return JSON.stringify(value);
}

/**
 * The items of a list argument that are defined: `null` items are left out, as RFC 6570 (which
 * OpenAPI's parameter styles follow) leaves out undefined values; sent as the text `null`, a
 * server would read the string "null".
 */
export function definedItems(list: readonly unknown[]): unknown[] {
  return list.filter((item) => item !== null && item !== undefined);
}

/** The fields of an object argument whose values are defined (not `null`), as {@link definedItems}. */
export function definedEntries(record: Readonly<Record<string, unknown>>): [string, unknown][] {
  return Object.entries(record).filter(([, item]) => item !== null && item !== undefined);
}

/** The text that joins a list's items in each Swagger 2.0 `collectionFormat`. */
export const COLLECTION_SEPARATORS: Readonly<Record<string, string>> = {
  csv: ',',
  ssv: ' ',
  tsv: '\t',
  pipes: '|',
};

/** True for plain objects (not arrays, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
