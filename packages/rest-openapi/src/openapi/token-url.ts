import { ToolError } from '@toolplane/core';
import { sameSite, normalizeOrigins } from '../token-origins.js';
import { SchemeRefused } from './scheme-refused.js';

/**
 * Checks `allowedTokenOrigins` (http(s) origins, nothing after the host and port) and returns
 * them normalized (`HTTPS://Auth.Example.com/` -> `https://auth.example.com`).
 */
export function checkAllowedTokenOrigins(value: unknown): readonly string[] {
  if (value === undefined) return [];
  const checked = normalizeOrigins(value, 'allowedTokenOrigins');
  if ('problem' in checked) throw new ToolError('CONFIG_INVALID', checked.problem);
  return checked.origins;
}

/** Where a document's tokenUrl may send the client secret, as far as the import can tell. */
export type DocumentTokenUrl =
  /** On the API's own origin or registrable domain, or an allowed origin. */
  | { readonly tokenUrl: string; readonly confirmed: true }
  /** Elsewhere, or the API's origin is not known before `${VAR}` is read: checked at each call. */
  | { readonly tokenUrl: string; readonly confirmed: false; readonly origin: string; readonly why: string }
  /** No http(s) URL: the scheme cannot be used. */
  | { readonly unsupported: string };

/** Where a document's tokenUrl is judged: the operation's base URL and the document's server. */
export interface TokenUrlContext {
  /** The operation's base URL; a relative tokenUrl is resolved against it. */
  readonly apiBase: string | undefined;
  /** Origins the operator allowed (normalized). */
  readonly allowed: readonly string[];
  /** The base URL of the document's (chosen) server, for an operation with a server of its own. */
  readonly documentBase?: string | undefined;
  /** `${<PREFIX>_BASE_URL}`, the origin of relative servers: a relative tokenUrl goes after it too. */
  readonly relativeBase?: string | undefined;
}

/**
 * The token URL a document's OAuth2 scheme may use: resolved against the operation's base URL
 * when relative (as the OpenAPI specification says). On the API's own origin, its registrable
 * domain (by the Public Suffix List) or an origin in `allowedTokenOrigins` it is confirmed; any
 * other is kept unconfirmed, and the REST provider refuses to send the client secret there
 * (`DENIED`) until the operator allows it. User info is dropped (undici would not send it) and
 * never repeated in a message. A relative tokenUrl while the base URL waits for the operator's
 * `${VAR}` is {@link SchemeRefused}: what it means is not known.
 */
export function documentTokenUrl(
  scheme: string,
  tokenUrl: string,
  context: TokenUrlContext,
): DocumentTokenUrl {
  const { apiBase, allowed, documentBase, relativeBase } = context;
  const pass = `pass credentials.${scheme}.tokenUrl (the token endpoint you mean)`;
  const scoped = relativeBase !== undefined && apiBase?.startsWith(relativeBase) === true;
  if (scoped && !/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(tokenUrl)) {
    // a relative tokenUrl under a relative server: on the same origin, whatever it is set to
    const under = (apiBase as string).slice((relativeBase as string).length);
    const resolved = new URL(tokenUrl, `http://relative.invalid${under}`);
    return { tokenUrl: `${relativeBase}${resolved.pathname}${resolved.search}`, confirmed: true };
  }
  const known = apiBase !== undefined && !apiBase.includes('${') ? apiBase : undefined;
  let apiUrl: URL | undefined;
  try {
    apiUrl = known ? new URL(known) : undefined;
  } catch {
    // the operation's own problem (skipped with the reason), not the scheme's
    throw new ToolError('CONFIG_INVALID', `its base URL ${JSON.stringify(known)} is not a valid URL`);
  }
  let url: URL;
  try {
    url = known ? new URL(tokenUrl, known) : new URL(tokenUrl);
  } catch {
    if (known || /^[a-z][a-z0-9+.-]*:/i.test(tokenUrl))
      return { unsupported: `oauth2 whose tokenUrl is not a valid URL (${pass})` };
    throw new SchemeRefused(
      `security scheme "${scheme}" has a relative tokenUrl ${JSON.stringify(tokenUrl)} and the API's base URL is not known before \${...} is read; ${pass}, or exclude the operations that use it`,
    );
  }
  url.username = '';
  url.password = '';
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { unsupported: `oauth2 whose tokenUrl is ${url.protocol} not http(s) (${pass})` };
  if (allowed.includes(url.origin)) return { tokenUrl: url.href, confirmed: true };
  if (apiUrl && sameSite(url, apiUrl)) return { tokenUrl: url.href, confirmed: true };
  // an operation with a server of its own may still get its token from the document's server
  const documentUrl = urlOf(documentBase);
  if (documentUrl && sameSite(url, documentUrl)) return { tokenUrl: url.href, confirmed: true };
  return {
    tokenUrl: url.href,
    confirmed: false,
    origin: url.origin,
    why: apiUrl
      ? `neither the API's origin ${apiUrl.origin} nor on its registrable domain`
      : "and the API's origin is not known before ${...} is read",
  };
}

function urlOf(base: string | undefined): URL | undefined {
  if (base === undefined || base.includes('${')) return undefined;
  try {
    return new URL(base);
  } catch {
    return undefined;
  }
}
