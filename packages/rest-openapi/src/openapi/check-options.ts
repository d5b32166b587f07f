import { ToolError } from '@toolplane/core';
import { countOption } from '../limits.js';
import { checkToolConfig } from '../tool-spec.js';
import type { OperationFilter } from './filter.js';
import type { ImportOptions } from './import.js';

const FILTER_FIELDS = ['tags', 'methods', 'paths', 'operationIds'] as const;

function checkFilter(filter: OperationFilter | undefined, which: 'include' | 'exclude'): void {
  if (filter === undefined) return;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw new ToolError('CONFIG_INVALID', `${which} must be an object such as { tags: ['pets'] }`);
  }
  for (const field of FILTER_FIELDS) {
    const value = filter[field] as unknown;
    if (value === undefined) continue;
    const patterns = field === 'paths' || field === 'operationIds';
    const fine =
      Array.isArray(value) &&
      value.every((item) => typeof item === 'string' || (patterns && item instanceof RegExp));
    if (!fine) {
      throw new ToolError(
        'CONFIG_INVALID',
        `${which}.${field} must be a list of ${patterns ? 'strings or regular expressions' : 'strings'}, such as ${field === 'methods' ? "['GET']" : "['pets']"}; got ${JSON.stringify(value)}`,
      );
    }
  }
}

/**
 * Checks the importer's own options before anything is read, so a mistyped option is a
 * `CONFIG_INVALID` naming it rather than a filter that matches by substring, a description cut
 * to nothing, or a server silently replaced by the first one.
 */
export function checkImportOptions(options: ImportOptions): void {
  checkFilter(options.include, 'include');
  checkFilter(options.exclude, 'exclude');
  if (options.toolDefaults !== undefined) {
    // checked once here; a bad default would otherwise skip every operation
    checkToolConfig('toolDefaults', {
      description: '',
      method: 'GET',
      url: 'https://tool-defaults.invalid/',
      parametersSchema: { type: 'object' },
      ...options.toolDefaults,
    });
  }
  if (
    options.envPrefix !== undefined &&
    (typeof options.envPrefix !== 'string' || !/[A-Za-z0-9]/.test(options.envPrefix))
  ) {
    // default variables are <PREFIX>_<SCHEME>: without a prefix the document's scheme names
    // would pick any variable of the environment (CLOUD_TOKEN) and send it to its servers
    throw new ToolError(
      'CONFIG_INVALID',
      `envPrefix must hold a letter or digit (default variables are <PREFIX>_<SCHEME>, and without a prefix a document's scheme names would pick any environment variable); name variables in credentials instead, got ${JSON.stringify(options.envPrefix)}`,
    );
  }
  if (options.lookup !== undefined && typeof options.lookup !== 'function')
    throw new ToolError('CONFIG_INVALID', 'lookup must be a function with the signature of dns.lookup');
  if (options.maxDescriptionLength !== undefined)
    countOption(options.maxDescriptionLength, 'maxDescriptionLength', 1);
  if (options.maxParameterDescriptionLength !== undefined)
    countOption(options.maxParameterDescriptionLength, 'maxParameterDescriptionLength', 1);
  if (
    options.baseUrl !== undefined &&
    (typeof options.baseUrl !== 'string' || /[?#]/.test(options.baseUrl))
  ) {
    throw new ToolError(
      'CONFIG_INVALID',
      `baseUrl must be a URL without a query or fragment (credentials belong in credentials), got ${JSON.stringify(options.baseUrl)}`,
    );
  }
  if (typeof options.baseUrl === 'string' && /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(options.baseUrl)) {
    // it would be written into every tool url (and tool config file); not repeated here
    throw new ToolError(
      'CONFIG_INVALID',
      'baseUrl must not hold user info (user:password@); credentials belong in credentials',
    );
  }
  if (
    options.server !== undefined &&
    typeof options.server !== 'string' &&
    !(typeof options.server === 'number' && Number.isSafeInteger(options.server) && options.server >= 0)
  ) {
    throw new ToolError(
      'CONFIG_INVALID',
      `server must be an index into the document's servers or one of their URLs, got ${String(options.server)}`,
    );
  }
}

/** Checks that a chosen server exists among the document's servers (3.x). */
export function checkServerChoice(
  choice: number | string | undefined,
  servers: readonly Record<string, unknown>[],
): void {
  if (choice === undefined) return;
  const found = typeof choice === 'number' ? choice < servers.length : servers.some((s) => s.url === choice);
  if (!found) {
    const listed = servers.map((server, index) => `${index}: ${String(server.url)}`).join(', ');
    throw new ToolError(
      'CONFIG_INVALID',
      `server ${JSON.stringify(choice)} is not among the document's servers (${listed || 'none'}); pass one of them, or baseUrl`,
    );
  }
}

const CREDENTIAL_FIELDS = ['value', 'token', 'username', 'password', 'clientId', 'clientSecret', 'tokenUrl'];

/**
 * Checks `credentials` against the document's security schemes, so a misspelt scheme or field
 * is `CONFIG_INVALID` naming it instead of ignored (calls would go with the default variables,
 * or ask the document's token endpoint). Values are never repeated.
 */
export function checkCredentials(credentials: unknown, schemes: Readonly<Record<string, unknown>>): void {
  if (credentials === undefined) return;
  const invalid = (message: string): ToolError => new ToolError('CONFIG_INVALID', message);
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isRecord(credentials))
    throw invalid(
      "credentials must be an object by security scheme name, such as { apiKey: { value: '${API_KEY}' } }",
    );
  const known = Object.keys(schemes);
  for (const [name, given] of Object.entries(credentials)) {
    if (!Object.hasOwn(schemes, name)) {
      throw invalid(
        `credentials.${name}: the document has no security scheme ${JSON.stringify(name)} (it has: ${known.join(', ') || 'none'})`,
      );
    }
    if (!isRecord(given))
      throw invalid(`credentials.${name} must be an object such as { token: '\${API_TOKEN}' }`);
    for (const [field, value] of Object.entries(given)) {
      if (!CREDENTIAL_FIELDS.includes(field))
        throw invalid(
          `credentials.${name}.${field} is not a credential field (${CREDENTIAL_FIELDS.join(', ')})`,
        );
      if (value !== undefined && typeof value !== 'string')
        throw invalid(`credentials.${name}.${field} must be a string (usually \${VAR})`);
    }
  }
}
