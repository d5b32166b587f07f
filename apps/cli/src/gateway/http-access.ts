import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The environment variable `serve mcp --http` reads its bearer token from by default. */
export const DEFAULT_TOKEN_ENV = 'TOOLPLANE_GATEWAY_TOKEN';
/** The shortest token the gateway takes: shorter ones are guessable. */
export const MIN_TOKEN_LENGTH = 16;

/** Who may use the HTTP gateway: the bearer token, and the browser origins allowed besides none. */
export interface HttpAccess {
  readonly token: string;
  /** Browser origins (`https://app.example`) allowed to call; any other `Origin` is refused. */
  readonly allowedOrigins: readonly string[];
}

/** Why a request is refused, as the HTTP status and a JSON-RPC message; undefined when allowed. */
export interface AccessRefusal {
  readonly status: 401 | 403;
  readonly message: string;
}

/** A token for one run: 32 random bytes, base64url (43 characters). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** An origin as browsers send it: lowercase scheme and host, no trailing slash. */
export function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, '').toLowerCase();
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a browser `Origin` is a page served from this machine (`http://localhost:6274`, the MCP
 * Inspector's): DNS rebinding cannot produce one (a rebound page keeps its own origin, `evil.com`),
 * so such pages are allowed, and still need the token.
 */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return /^https?:$/.test(url.protocol) && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Compares two strings in time that does not depend on where they differ (or on their lengths). */
function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Checks a request against {@link HttpAccess}: a browser `Origin` that is neither a loopback page
 * ({@link isLoopbackOrigin}) nor allowed is 403
 * (a page a user visits cannot drive the gateway, even with the token), a missing or wrong
 * `Authorization: Bearer` is 401.
 */
export function accessRefusal(
  req: IncomingMessage,
  access: HttpAccess,
  tokenSource: string,
): AccessRefusal | undefined {
  const origin = req.headers.origin;
  if (
    origin !== undefined &&
    !isLoopbackOrigin(origin) &&
    !access.allowedOrigins.includes(normalizeOrigin(origin))
  )
    return {
      status: 403,
      message: `forbidden: requests from the browser origin ${JSON.stringify(origin.slice(0, 200))} are refused; start the gateway with --allow-origin ${normalizeOrigin(origin).slice(0, 200) || 'ORIGIN'} to allow that page`,
    };
  const header = req.headers.authorization ?? '';
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match)
    return {
      status: 401,
      message: `unauthorized: send the gateway's token as "Authorization: Bearer <token>" (${tokenSource})`,
    };
  if (!sameToken(match[1] as string, access.token))
    return {
      status: 401,
      message: `unauthorized: the bearer token is not this gateway's (${tokenSource})`,
    };
  return undefined;
}
