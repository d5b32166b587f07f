import { ToolError } from '@toolplane/core';
import type { RestParameterBinding } from './config.js';
import { encodeStrict, isPlainObject, scalarText } from './encoding.js';

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
    const items = value.map((item) => encodeStrict(scalarText(item)));
    if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
    if (style === 'matrix') {
      return explode
        ? items.map((item) => `;${wireName}=${item}`).join('')
        : `;${wireName}=${items.join(',')}`;
    }
    return items.join(',');
  }
  if (isPlainObject(value)) {
    const pairs = Object.entries(value).map(([key, item]) => [
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
 * Fills `{name}` placeholders of a path with encoded arguments. Refuses values that would
 * make a segment empty, `.` or `..` (servers and proxies collapse those), so an argument can
 * never move the request to another path.
 */
export function fillPath(
  pathTemplate: string,
  args: Readonly<Record<string, unknown>>,
  bindings: Readonly<Record<string, RestParameterBinding>> | undefined,
  argumentFor: (placeholder: string) => string,
): string {
  const path = pathTemplate.replace(PLACEHOLDER, (_whole, placeholder: string) => {
    const argument = argumentFor(placeholder);
    const text = serializePathValue(argument, args[argument], bindings?.[argument]);
    if (text === '') {
      throw new ToolError('INVALID_ARGUMENTS', `path argument "${argument}" must not be empty`);
    }
    return text;
  });
  for (const segment of path.split('/')) {
    if (/^(\.|%2e){1,2}$/i.test(segment)) {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `a path argument made the path segment "${segment}", which would change the path; pass a real identifier`,
      );
    }
  }
  return path;
}
