import { ToolError } from '@toolplane/core';
import { getDomain } from 'tldts';

const ORIGIN_EXAMPLE = "such as ['https://auth.example.com']";

/**
 * The registrable domain of a host by the Public Suffix List, its private section included
 * (`api.reverb.com` -> `reverb.com`, `a.github.io` -> `a.github.io`); none for an IP address or a
 * name that is itself a public suffix.
 */
export function registrableDomain(hostname: string): string | undefined {
  return getDomain(hostname, { allowPrivateDomains: true }) ?? undefined;
}

/**
 * Whether `token` counts as the API's own for its client secret: the same origin, or the same
 * registrable domain without going from https to http.
 */
export function sameSite(token: URL, api: URL): boolean {
  if (token.origin === api.origin) return true;
  if (api.protocol === 'https:' && token.protocol !== 'https:') return false;
  const domain = registrableDomain(token.hostname);
  return domain !== undefined && domain === registrableDomain(api.hostname);
}

/**
 * What is wrong with a list of origins (http(s), nothing after the host and port), or the list
 * normalized (`HTTPS://Auth.Example.com/` -> `https://auth.example.com`).
 */
export function normalizeOrigins(value: unknown, field: string): { origins: string[] } | { problem: string } {
  const wrong = (got: unknown) => ({
    problem: `${field} must be a list of origins (scheme, host and port only) ${ORIGIN_EXAMPLE}; got ${JSON.stringify(got)}`,
  });
  if (!Array.isArray(value)) return wrong(value);
  const origins: string[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'string') return wrong(entry);
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return wrong(entry);
    }
    const originOnly =
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      url.search === '' &&
      url.hash === '' &&
      !/[?#]/.test(entry);
    if (!originOnly) return wrong(entry.replace(/\/\/[^/@]*@/, '//…@'));
    origins.push(url.origin);
  }
  return { origins };
}

/**
 * Refuses (`DENIED`, before anything is sent) a token URL an OpenAPI document chose that is not
 * on the API's site (`apiOrigin`, the origin the call goes to) nor on an origin in `allowed`: the
 * client id and secret would go where the document, not the operator, chose.
 */
export function refuseForeignTokenUrl(tokenUrl: string, apiOrigin: string, allowed: readonly string[]): void {
  let token: URL;
  try {
    token = new URL(tokenUrl);
  } catch {
    return; // not a URL: the token request says so, sending nothing
  }
  if (allowed.includes(token.origin) || sameSite(token, new URL(apiOrigin))) return;
  throw new ToolError(
    'DENIED',
    `the OAuth2 tokenUrl ${token.origin}${token.pathname} was chosen by the API's OpenAPI document and is neither on the API's origin ${apiOrigin} nor on its registrable domain, so your client id and secret were not sent; if you trust that endpoint, add '${token.origin}' to allowedTokenOrigins of this auth entry (when importing: the allowedTokenOrigins option, or toolplane openapi import --allow-token-origin ${token.origin}), or set the tokenUrl you mean`,
    { retryable: false, details: { tokenOrigin: token.origin, apiOrigin } },
  );
}
