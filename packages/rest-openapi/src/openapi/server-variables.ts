import { ToolError } from '@toolplane/core';
import type { OpenAPIV3 } from 'openapi-types';

/** A server object as documents write it (values are checked, not trusted). */
export type Server = Partial<OpenAPIV3.ServerObject>;

const PLACEHOLDER = /\{([^{}]+)\}/g;
/** What a value may hold in the scheme or host part: letters, digits and `-._~:`. */
const AUTHORITY_VALUE = /^[A-Za-z0-9._~:-]*$/;
/** What a value may hold in the path: the same and `/`. */
const PATH_VALUE = /^[A-Za-z0-9._~:/-]*$/;

function variablesOf(server: Server): Record<string, Partial<OpenAPIV3.ServerVariableObject>> {
  const variables = server.variables;
  return typeof variables === 'object' && variables !== null && !Array.isArray(variables)
    ? (variables as Record<string, Partial<OpenAPIV3.ServerVariableObject>>)
    : {};
}

/** Names of the variables a server uses or declares. */
function namesOf(server: Server): string[] {
  const url = typeof server.url === 'string' ? server.url : '';
  return [
    ...[...url.matchAll(PLACEHOLDER)].map((match) => match[1] as string),
    ...Object.keys(variablesOf(server)),
  ];
}

/**
 * Where the host part of a server URL template ends: the first `/`, `?` or `#` after `://`
 * (or 0 for a relative URL, which has no host part).
 */
function authorityEnd(url: string): number {
  // `https://`, `{scheme}://` or a protocol-relative `//`
  const scheme = /^(?:[A-Za-z][A-Za-z0-9+.-]*:|\{[^{}]+\}:)?\/\//.exec(url);
  if (!scheme) return 0;
  const rest = url.slice(scheme[0].length).search(/[/?#]/);
  return rest < 0 ? url.length : scheme[0].length + rest;
}

function refuse(name: string, value: string, url: string, why: string): ToolError {
  return new ToolError(
    'CONFIG_INVALID',
    `server variable ${name}=${JSON.stringify(value)} of ${url} ${why}; pass serverVariables.${name} with a plain value (or baseUrl)`,
    { details: { variable: name } },
  );
}

/**
 * Checks one value. It is never percent-encoded: encoding cannot make a host label safe, and a
 * path prefix is meant as written. So it is refused when it could change the URL's structure:
 * anything but letters, digits and `-._~:` in the scheme or host; in the path `/` too, but no
 * empty, `.` or `..` segment. A variable that ends the host part (`https://api.example.com{base}`)
 * may hold a path that starts with `/`, and so may one after a `/` (`https://host/{basePath}`
 * with `/api/v1` is `https://host/api/v1`, not an empty segment).
 */
function checkValue(name: string, value: string, url: string, start: number, end: number): void {
  const hostEnd = authorityEnd(url);
  const inPath = start >= hostEnd || (end === hostEnd && value.startsWith('/'));
  if (!(inPath ? PATH_VALUE : AUTHORITY_VALUE).test(value)) {
    throw refuse(
      name,
      value,
      url,
      inPath
        ? 'may hold only letters, digits, "-", ".", "_", "~", ":" and "/" (no "?", "#", "@", "%", spaces or ${...})'
        : 'is in the host part and may hold only letters, digits, "-", ".", "_", "~" and ":" (no "/", "?", "#", "@", "%", spaces or ${...})',
    );
  }
  if (inPath && value !== '') {
    const segments = value.split('/');
    // a leading "/" is fine: where the template has one before the variable, the two are one
    const inner = value.startsWith('/') ? segments.slice(1) : segments;
    if (
      inner.some(
        (segment, index) =>
          segment === '.' || segment === '..' || (segment === '' && index < inner.length - 1),
      )
    ) {
      throw refuse(name, value, url, 'would make a path segment empty, "." or ".." and leave the base path');
    }
  }
}

/**
 * The variable's `enum`, or undefined when it has none. One that is no list, or an empty list
 * (which no value could match), is `CONFIG_INVALID` naming the variable: the first used to be
 * ignored, so any value passed unchecked.
 */
function enumOf(
  name: string,
  variable: Partial<OpenAPIV3.ServerVariableObject> | undefined,
  url: string,
): readonly unknown[] | undefined {
  if (variable?.enum === undefined) return undefined;
  const list: unknown = variable.enum;
  if (!Array.isArray(list)) {
    const what = list === null ? 'null' : typeof list === 'object' ? 'an object' : `a ${typeof list}`;
    throw new ToolError(
      'CONFIG_INVALID',
      `server variable {${name}} of ${url} has an enum that is no list (${what}); the document is invalid there: pass baseUrl`,
      { details: { variable: name } },
    );
  }
  if (list.length === 0) {
    throw new ToolError(
      'CONFIG_INVALID',
      `server variable {${name}} of ${url} has an empty enum, which no value can match (the specification requires at least one); pass baseUrl`,
      { details: { variable: name } },
    );
  }
  return list;
}

/**
 * The server's URL with its variables filled from `values` (the operator's) or the document's
 * defaults. Every value, wherever it comes from, must be one of the variable's `enum` when it
 * has one, and is checked by {@link checkValue}; a bad one is `CONFIG_INVALID` naming it.
 */
export function fillVariables(server: Server, values: Readonly<Record<string, string>>): string {
  const url = String(server.url ?? '');
  const variables = variablesOf(server);
  return url.replace(PLACEHOLDER, (whole, name: string, offset: number) => {
    const variable = Object.hasOwn(variables, name) ? variables[name] : undefined;
    const configured = Object.hasOwn(values, name) ? values[name] : undefined;
    const value = configured ?? (variable?.default === undefined ? undefined : String(variable.default));
    if (value === undefined) {
      throw new ToolError(
        'CONFIG_INVALID',
        `server variable {${name}} of ${url} has no default; pass serverVariables.${name}`,
        { details: { variable: name } },
      );
    }
    const allowed = enumOf(name, variable, url);
    if (allowed && !allowed.map(String).includes(value)) {
      throw new ToolError(
        'CONFIG_INVALID',
        `server variable ${name}=${JSON.stringify(value)} is not one of ${allowed.map((item) => JSON.stringify(item)).join(', ')}${configured === undefined ? ` (the document's default); pass serverVariables.${name}` : ''}`,
        { details: { variable: name } },
      );
    }
    checkValue(name, value, url, offset, offset + whole.length);
    // `https://host/{basePath}` with `/api`: one slash, as the document means
    return value.startsWith('/') && url[offset - 1] === '/' && offset > authorityEnd(url)
      ? value.slice(1)
      : value;
  });
}

/**
 * Checks `serverVariables` before any server is filled: an object of strings, each the name of
 * a variable some server of the document has (a misspelt name would be ignored, leaving every
 * call on the default).
 */
export function checkServerVariables(values: unknown, servers: readonly Server[]): void {
  if (values === undefined) return;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new ToolError('CONFIG_INVALID', 'serverVariables must be an object such as { region: "eu" }');
  }
  const known = new Set(servers.flatMap(namesOf));
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'string') {
      throw new ToolError(
        'CONFIG_INVALID',
        `serverVariables.${name} must be a string, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
        { details: { variable: name } },
      );
    }
    if (!known.has(name)) {
      throw new ToolError(
        'CONFIG_INVALID',
        `serverVariables.${name} is not a variable of the document's servers (${[...known].join(', ') || 'none'})`,
        { details: { variable: name } },
      );
    }
  }
}
