import { ToolError } from '@toolplane/core';
import { own } from './records.js';
import type { RestParameterBinding } from './config.js';
import {
  COLLECTION_SEPARATORS,
  definedEntries,
  definedItems,
  encodeStrict,
  isPlainObject,
  scalarText,
} from './encoding.js';

/** Text of one path argument, serialized by OpenAPI style and percent-encoded. */
export function serializePathValue(name: string, value: unknown, binding?: RestParameterBinding): string {
  if (value === undefined || value === null) {
    throw new ToolError('INVALID_ARGUMENTS', `path argument "${name}" is required; pass a value for it`);
  }
  const style = binding?.style ?? 'simple';
  const explode = binding?.explode ?? false;
  if (binding?.json) return encodeStrict(JSON.stringify(value));
  const wireName = encodeStrict(binding?.name ?? name);
  if (Array.isArray(value)) {
    const items = definedItems(value).map((item) => encodeStrict(scalarText(item)));
    const joiner = binding?.collectionFormat && COLLECTION_SEPARATORS[binding.collectionFormat];
    if (joiner && joiner !== ',') return items.join(encodeStrict(joiner));
    if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
    if (style === 'matrix') {
      return explode
        ? items.map((item) => `;${wireName}=${item}`).join('')
        : `;${wireName}=${items.join(',')}`;
    }
    return items.join(',');
  }
  if (isPlainObject(value)) {
    const pairs = definedEntries(value).map(([key, item]) => [
      encodeStrict(key),
      encodeStrict(scalarText(item)),
    ]);
    if (style === 'label') {
      return `.${pairs.map(([key, item]) => (explode ? `${key}=${item}` : `${key},${item}`)).join(explode ? '.' : ',')}`;
    }
    if (style === 'matrix') {
      return explode
        ? pairs.map(([key, item]) => `;${key}=${item}`).join('')
        : `;${wireName}=${pairs.map(([key, item]) => `${key},${item}`).join(',')}`;
    }
    return pairs.map(([key, item]) => (explode ? `${key}=${item}` : `${key},${item}`)).join(',');
  }
  const text = encodeStrict(scalarText(value));
  if (style === 'label') return `.${text}`;
  if (style === 'matrix') return `;${wireName}=${text}`;
  return text;
}

const PLACEHOLDER = /\{([^{}/]+)\}/g;

/** Names of the `{name}` placeholders in a URL path template. */
export function pathPlaceholders(pathTemplate: string): string[] {
  return [...pathTemplate.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
}

/**
 * Whether a path template has a `{` or `}` outside a `{name}` placeholder (`/items/{id`,
 * `/items/{}`, `/items/{{id}}`): a broken template, whose braces would otherwise be sent raw.
 */
export function hasStrayBrace(pathTemplate: string): boolean {
  return /[{}]/.test(pathTemplate.replace(PLACEHOLDER, ''));
}

/** A character a URL path cannot carry as written (RFC 3986 pchar and `/`), or a `%` that starts no escape. */
const NOT_IN_PATH = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu;

/**
 * Literal path text as a URL path: characters a path cannot carry (spaces, quotes, `<`, `ü`...)
 * percent-encoded as UTF-8, as a browser's URL parser does, and a `%` that starts no escape as
 * `%25`; valid characters and existing escapes (`%20`) are kept as written.
 */
export function encodePathLiteral(text: string): string {
  return text.replace(NOT_IN_PATH, (character) =>
    [...Buffer.from(character, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}

/** A path template split once into literal text and the arguments that fill it. */
export type PathPart = string | { readonly argument: string };

/** Splits a path template into parts; `argumentFor` maps a placeholder to its argument name. */
export function compilePath(pathTemplate: string, argumentFor: (placeholder: string) => string): PathPart[] {
  const parts: PathPart[] = [];
  let last = 0;
  for (const match of pathTemplate.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push(encodePathLiteral(pathTemplate.slice(last, match.index)));
    parts.push({ argument: argumentFor(match[1] as string) });
    last = match.index + match[0].length;
  }
  if (last < pathTemplate.length) parts.push(encodePathLiteral(pathTemplate.slice(last)));
  return parts;
}

/**
 * Fills a compiled path with encoded arguments. Refuses values that would make a segment
 * empty, `.` or `..` (servers and proxies collapse those), so an argument can never move the
 * request to another path.
 */
export function renderPath(
  parts: readonly PathPart[],
  args: Readonly<Record<string, unknown>>,
  bindings: Readonly<Record<string, RestParameterBinding>> | undefined,
): string {
  let path = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      path += part;
      continue;
    }
    const text = serializePathValue(part.argument, own(args, part.argument), own(bindings, part.argument));
    if (text === '')
      throw new ToolError('INVALID_ARGUMENTS', `path argument "${part.argument}" must not be empty`);
    path += text;
  }
  if (path.includes('/.')) {
    for (const segment of path.split('/')) {
      if (segment === '.' || segment === '..') {
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `a path argument made the path segment "${segment}", which would change the path; pass a real identifier`,
        );
      }
    }
  }
  return path;
}

/** {@link compilePath} and {@link renderPath} in one step. */
export function fillPath(
  pathTemplate: string,
  args: Readonly<Record<string, unknown>>,
  bindings: Readonly<Record<string, RestParameterBinding>> | undefined,
  argumentFor: (placeholder: string) => string,
): string {
  return renderPath(compilePath(pathTemplate, argumentFor), args, bindings);
}
