import type { RestParameterBinding } from './config.js';
import {
  COLLECTION_SEPARATORS,
  definedEntries,
  definedItems,
  encodeAllowReserved,
  encodeStrict,
  isPlainObject,
  scalarText,
} from './encoding.js';

function deepPairs(prefix: string, value: unknown, out: string[], encode: (text: string) => string): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) deepPairs(`${prefix}[]`, item, out, encode);
    return;
  }
  if (isPlainObject(value)) {
    for (const [key, item] of definedEntries(value))
      deepPairs(`${prefix}[${encodeStrict(key)}]`, item, out, encode);
    return;
  }
  out.push(`${prefix}=${encode(scalarText(value))}`);
}

/**
 * Appends the `key=value` pairs of one query argument, already encoded, by OpenAPI style
 * (`form` with or without explode, `spaceDelimited`, `pipeDelimited`, `deepObject`) or as JSON.
 */
export function serializeQueryValue(
  name: string,
  value: unknown,
  binding: RestParameterBinding,
  out: string[],
): void {
  if (value === undefined || value === null) return;
  const encode = binding.allowReserved ? encodeAllowReserved : encodeStrict;
  const key = encodeStrict(binding.name ?? name);
  if (binding.json) {
    out.push(`${key}=${encode(JSON.stringify(value))}`);
    return;
  }
  const style = binding.style ?? 'form';
  const explode = binding.explode ?? style === 'form';
  if (Array.isArray(value)) {
    const items = definedItems(value).map((item) => encode(scalarText(item)));
    const joiner = binding.collectionFormat && COLLECTION_SEPARATORS[binding.collectionFormat];
    if (joiner) {
      // `|` stays as written, as pipeDelimited sends it; a space or a tab is escaped
      out.push(`${key}=${items.join(joiner === '|' ? '|' : encodeStrict(joiner))}`);
    } else if (style === 'deepObject') {
      deepPairs(key, value, out, encode);
    } else if (explode) {
      for (const item of items) out.push(`${key}=${item}`);
    } else {
      const separator = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
      out.push(`${key}=${items.join(separator)}`);
    }
    return;
  }
  if (isPlainObject(value)) {
    if (style === 'deepObject') {
      deepPairs(key, value, out, encode);
    } else if (explode) {
      for (const [field, item] of definedEntries(value))
        out.push(`${encodeStrict(field)}=${encode(scalarText(item))}`);
    } else {
      const separator = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
      const flat = definedEntries(value).flatMap(([field, item]) => [
        encode(field),
        encode(scalarText(item)),
      ]);
      out.push(`${key}=${flat.join(separator)}`);
    }
    return;
  }
  out.push(`${key}=${encode(scalarText(value))}`);
}

const EXPANDED_ARRAY: RestParameterBinding = { in: 'query', style: 'form', explode: true };
const EXPANDED_OBJECT: RestParameterBinding = { in: 'query', style: 'deepObject', explode: true };
const AS_JSON: RestParameterBinding = { in: 'query', json: true };
const PLAIN: RestParameterBinding = { in: 'query' };

/** Binding for a query argument of a hand-written tool: expanded (`a=1&a=2`, `f[x]=1`) or JSON text. */
export function defaultQueryBinding(value: unknown, complex: boolean): RestParameterBinding {
  if (Array.isArray(value)) return complex ? EXPANDED_ARRAY : AS_JSON;
  if (isPlainObject(value)) return complex ? EXPANDED_OBJECT : AS_JSON;
  return PLAIN;
}
