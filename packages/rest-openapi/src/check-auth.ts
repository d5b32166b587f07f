import { normalizeOrigins } from './token-origins.js';
import { tokenUrlProblem } from './token-request.js';

/** An HTTP header name (RFC 9110 token). */
export const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers the HTTP client owns: `host` routes the request to a virtual host, the rest frame the
 * message. None may come from an argument or an auth entry; only `host` may be configured, fixed.
 */
export const CLIENT_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'expect',
  'te',
  'trailer',
]);

/** Says a header is the HTTP client's to set. */
export function clientHeaderMessage(header: string, by: string): string {
  return `${by}: the ${header.toLowerCase()} header is set by the HTTP client (request routing and message framing), not by a tool; leave it out`;
}

const STRING_FIELDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['bearer', ['token']],
  ['basic', ['username', 'password']],
  ['apiKey', ['name', 'value']],
  ['oauth2-client-credentials', ['tokenUrl', 'clientId', 'clientSecret']],
]);

/**
 * What is wrong with a tool's `auth` (one entry or a list), or undefined. Checked when a provider
 * is created, so a hand-edited config file with `type: digest` or a missing token is refused
 * there, naming the field, instead of failing every call with a TypeError.
 */
export function authProblem(auth: unknown): string | undefined {
  const entries: unknown[] = auth === undefined ? [] : Array.isArray(auth) ? auth : [auth];
  for (const [index, entry] of entries.entries()) {
    const where = Array.isArray(auth) ? `auth[${index}]` : 'auth';
    if (typeof entry !== 'object' || entry === null) {
      return `${where} must be an object such as { "type": "bearer", "token": "\${API_TOKEN}" }`;
    }
    const record = entry as Record<string, unknown>;
    const fields = STRING_FIELDS.get(record.type as string);
    if (!fields) {
      return `${where}.type must be one of ${[...STRING_FIELDS.keys()].join(', ')}, got ${JSON.stringify(record.type)}`;
    }
    for (const field of fields) {
      if (typeof record[field] !== 'string') return `${where}.${field} must be a string (usually \${VAR})`;
    }
    if (
      record.type === 'basic' &&
      !(record.username as string).includes('${') &&
      (record.username as string).includes(':')
    )
      return `${where}.username holds a colon, which ends a user name in HTTP basic credentials; use a user name without one`;
    if (record.type === 'apiKey') {
      if (record.in !== 'header' && record.in !== 'query' && record.in !== 'cookie')
        return `${where}.in must be header, query or cookie`;
      if (record.in === 'header' && !HEADER_TOKEN.test(record.name as string))
        return `${where}.name ${JSON.stringify(record.name)} is not a valid HTTP header name`;
      if (record.in === 'header' && CLIENT_HEADERS.has((record.name as string).toLowerCase()))
        return clientHeaderMessage(record.name as string, `${where}.name`);
    }
    if (record.type === 'oauth2-client-credentials' && !(record.tokenUrl as string).includes('${')) {
      const problem = tokenUrlProblem(record.tokenUrl as string);
      if (problem) return `${where}.${problem}`;
    }
    if (record.type === 'oauth2-client-credentials' && record.allowedTokenOrigins !== undefined) {
      const origins = normalizeOrigins(record.allowedTokenOrigins, `${where}.allowedTokenOrigins`);
      if ('problem' in origins) return origins.problem;
    }
    const scopes = record.scopes;
    if (
      scopes !== undefined &&
      !(Array.isArray(scopes) && scopes.every((scope) => typeof scope === 'string'))
    )
      return `${where}.scopes must be a list of strings`;
  }
  return headerClash(entries as readonly AuthEntryShape[]);
}

/**
 * A header the tool's `headers` configure that an auth entry sets too (the entry used to replace
 * it silently). Names the header and the entry, never a value: either may hold a credential.
 */
export function configuredHeaderClash(
  headers: Readonly<Record<string, unknown>> | undefined,
  auth: unknown,
): string | undefined {
  if (headers === undefined || auth === undefined) return undefined;
  const entries = (Array.isArray(auth) ? auth : [auth]) as readonly AuthEntryShape[];
  for (const header of Object.keys(headers)) {
    const lower = header.toLowerCase();
    const index = entries.findIndex((entry) => authHeaderName(entry) === lower);
    if (index === -1) continue;
    const where = Array.isArray(auth) ? `auth[${index}]` : 'auth';
    return `headers.${header} and ${where} (${String(entries[index]?.type)}) both set the ${lower} header, which carries one credential; remove the header or the auth entry`;
  }
  return undefined;
}

type AuthEntryShape = { type?: unknown; in?: unknown; name?: unknown; optional?: unknown };

/**
 * The header an auth entry sets (lower case): `authorization` for bearer, basic and OAuth2, the
 * name of an API key sent in a header; undefined for query and cookie keys.
 */
export function authHeaderName(entry: AuthEntryShape): string | undefined {
  if (entry.type === 'apiKey') return entry.in === 'header' ? String(entry.name).toLowerCase() : undefined;
  return 'authorization';
}

/**
 * Two entries that would set one header (the last would win silently, the other spent for
 * nothing). Optional entries may stand in for each other: a call refuses them when both are set.
 */
function headerClash(entries: readonly AuthEntryShape[]): string | undefined {
  const first = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    const header = authHeaderName(entry);
    if (header === undefined || entry.optional === true) continue;
    const earlier = first.get(header);
    if (earlier !== undefined)
      return `auth[${earlier}] and auth[${index}] both set the ${header} header, which carries one credential; keep one of them`;
    first.set(header, index);
  }
  return undefined;
}
