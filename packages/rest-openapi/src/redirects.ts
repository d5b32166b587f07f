import { type ToolResult, fail } from '@toolplane/core';
import type { PreparedRequest } from './request-builder.js';

/** `METHOD origin/path`, without the query (which may hold a key), for messages. */
export function targetOf(request: PreparedRequest): string {
  const question = request.path.indexOf('?');
  return `${request.method} ${request.origin}${question === -1 ? request.path : request.path.slice(0, question)}`;
}

function hostAllowed(host: string, own: string, allowed: readonly string[]): boolean {
  const bare = host.toLowerCase();
  if (bare === own.toLowerCase()) return true;
  const hostname = bare.replace(/:\d+$/, '');
  return allowed.some((pattern) => {
    const lower = pattern.toLowerCase();
    if (lower.startsWith('*.')) return hostname.endsWith(lower.slice(1));
    return lower === bare || lower === hostname;
  });
}

/**
 * Where a redirect may go: http(s), never from https to http, no user info, only the tool's own
 * host or one of `allowedRedirectHosts`; anything else is a failure that says so.
 */
export function redirectTarget(
  request: PreparedRequest,
  location: string,
  ownHost: string,
  allowed: readonly string[],
): { url: URL } | { error: ToolResult } {
  let url: URL;
  try {
    url = new URL(location, `${request.origin}${request.path}`);
  } catch {
    return {
      error: fail(
        'EXECUTION_FAILED',
        `redirect to an invalid location ${JSON.stringify(location.slice(0, 200))}`,
      ),
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { error: fail('DENIED', `redirect to ${url.protocol} URLs is refused`) };
  }
  if (request.protocol === 'https:' && url.protocol === 'http:') {
    return { error: fail('DENIED', `redirect from https to plain http (${url.host}) is refused`) };
  }
  if (url.username || url.password || !hostAllowed(url.host, ownHost, allowed)) {
    return {
      error: fail(
        'DENIED',
        `the endpoint redirected to ${url.host}, which this tool is not configured for; add it to allowedRedirectHosts if it is trusted`,
        { details: { location: `${url.origin}${url.pathname}` } },
      ),
    };
  }
  return { url };
}

/** Whether a redirect turns the request into a GET without its body (303; 301 and 302 after a POST). */
function turnsToGet(status: number, method: string): boolean {
  return status === 303 || ((status === 301 || status === 302) && method === 'POST');
}

/**
 * A body filled from `${VAR}` is for the configured origin, like auth's headers: a redirect that
 * would carry it to another origin (307, 308, a 301 or 302 after PUT...) is refused, not followed
 * without it (a 307 without its body is another request).
 */
export function bodySecretsRefused(
  request: PreparedRequest,
  url: URL,
  status: number,
  envBody: boolean,
): ToolResult | undefined {
  if (!envBody || request.body === undefined || url.origin === request.origin) return undefined;
  if (turnsToGet(status, request.method)) return undefined;
  return fail(
    'DENIED',
    `${targetOf(request)} redirected (HTTP ${status}) to ${url.origin}, another origin, keeping the request body; the body holds values from \${VAR} in bodyTemplate, which are not sent off the API's origin, so the call stopped there; point the tool's url at ${url.origin} if that origin is to get them`,
    { details: { status, location: `${url.origin}${url.pathname}` } },
  );
}

export function nextRequest(
  request: PreparedRequest,
  url: URL,
  status: number,
  authHeaderNames: readonly string[],
): PreparedRequest {
  const headers = { ...request.headers };
  if (url.origin !== request.origin) {
    // Credentials are for the configured origin only.
    for (const name of [...authHeaderNames, 'authorization', 'cookie']) delete headers[name];
  }
  const toGet = turnsToGet(status, request.method);
  if (toGet) {
    delete headers['content-type'];
    delete headers['content-length'];
  }
  const next: PreparedRequest = {
    origin: url.origin,
    host: url.host,
    protocol: url.protocol as 'http:' | 'https:',
    path: `${url.pathname}${url.search}`,
    method: toGet && request.method !== 'HEAD' ? 'GET' : request.method,
    headers,
    ...(toGet || request.body === undefined ? {} : { body: request.body }),
  };
  return next;
}
