import { ToolError } from '@toolplane/core';
import { SchemeRefused } from './scheme-refused.js';

const ORIGIN_EXAMPLE = "such as ['https://auth.example.com']";

/**
 * Checks `allowedTokenOrigins` (http(s) origins, nothing after the host and port) and returns
 * them normalized (`HTTPS://Auth.Example.com/` -> `https://auth.example.com`).
 */
export function checkAllowedTokenOrigins(value: unknown): readonly string[] {
  if (value === undefined) return [];
  const wrong = (got: unknown): ToolError =>
    new ToolError(
      'CONFIG_INVALID',
      `allowedTokenOrigins must be a list of origins (scheme, host and port only) ${ORIGIN_EXAMPLE}; got ${JSON.stringify(got)}`,
    );
  if (!Array.isArray(value)) throw wrong(value);
  return value.map((entry: unknown) => {
    if (typeof entry !== 'string') throw wrong(entry);
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw wrong(entry);
    }
    const originOnly =
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      url.search === '' &&
      url.hash === '' &&
      !/[?#]/.test(entry);
    if (!originOnly) throw wrong(entry.replace(/\/\/[^/@]*@/, '//…@'));
    return url.origin;
  });
}

/**
 * The token URL a document's OAuth2 scheme may use: resolved against the operation's base URL
 * when relative (as the OpenAPI specification says), and only on the API's own origin or on an
 * origin in `allowedTokenOrigins`. Anything else is {@link SchemeRefused}: the client secret
 * would go where the document, not the operator, chose. User info is dropped (undici would not
 * send it) and never repeated in a message.
 */
export function documentTokenUrl(
  scheme: string,
  tokenUrl: string,
  apiBase: string | undefined,
  allowed: readonly string[],
  documentBase?: string,
): string {
  const ways = (origin: string): string =>
    `pass credentials.${scheme}.tokenUrl (the token endpoint you mean)${
      /^https?:\/\//.test(origin) ? `, or allowedTokenOrigins: ['${origin}'] if you trust it` : ''
    }, or exclude the operations that use it`;
  const known = apiBase !== undefined && !apiBase.includes('${') ? apiBase : undefined;
  let apiOrigin: string | undefined;
  try {
    apiOrigin = known ? new URL(known).origin : undefined;
  } catch {
    // the operation's own problem (skipped with the reason), not the scheme's
    throw new ToolError('CONFIG_INVALID', `its base URL ${JSON.stringify(known)} is not a valid URL`);
  }
  let url: URL;
  try {
    url = known ? new URL(tokenUrl, known) : new URL(tokenUrl);
  } catch {
    throw new SchemeRefused(
      known || /^[a-z][a-z0-9+.-]*:/i.test(tokenUrl)
        ? `security scheme "${scheme}" has a tokenUrl that is not a valid URL; ${ways('')}`
        : `security scheme "${scheme}" has a relative tokenUrl ${JSON.stringify(tokenUrl)} and the API's base URL is not known before \${...} is read; ${ways('')}`,
    );
  }
  url.username = '';
  url.password = '';
  const web = url.protocol === 'http:' || url.protocol === 'https:';
  const origin = web ? url.origin : `${url.protocol}//${url.host}`;
  if (web && allowed.includes(url.origin)) return url.href;
  if (web && apiOrigin === url.origin) return url.href;
  // an operation with a server of its own may still get its token from the document's server
  if (web && documentBase !== undefined && originOf(documentBase) === url.origin) return url.href;
  const why = !web
    ? 'which is not http(s)'
    : apiOrigin
      ? `not the API's origin ${apiOrigin}`
      : "and the API's origin is not known before ${...} is read";
  throw new SchemeRefused(
    `security scheme "${scheme}" would send your client id and secret to ${origin} (the document's tokenUrl), ${why}; ${ways(origin)}`,
  );
}

function originOf(base: string): string | undefined {
  try {
    return new URL(base).origin;
  } catch {
    return undefined;
  }
}
