import { ToolError } from '@toolplane/core';

/**
 * Reads an OAuth2 token endpoint's successful answer (RFC 6749 5.1): the access token, which must
 * be a Bearer token a header can carry, and its lifetime in seconds. An error answer (5.2) sent
 * with HTTP 200 is the refusal it is. `endpoint` (origin and path) is named in messages.
 */
export function readTokenAnswer(
  text: string,
  endpoint: string,
  status: number,
): { token: string; lifetimeSeconds: number } {
  let parsed: {
    access_token?: unknown;
    expires_in?: unknown;
    token_type?: unknown;
    error?: unknown;
    error_description?: unknown;
  } | null;
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (error) {
    throw new ToolError('PROVIDER_UNAVAILABLE', 'OAuth2 token endpoint did not answer JSON', {
      cause: error,
    });
  }
  if (typeof parsed?.error === 'string' && typeof parsed.access_token !== 'string') {
    // RFC 6749 5.2's error answer, which some servers send with HTTP 200
    const described =
      typeof parsed.error_description === 'string' ? `: ${parsed.error_description.slice(0, 300)}` : '';
    const unavailable = parsed.error === 'temporarily_unavailable' || parsed.error === 'server_error';
    throw new ToolError(
      unavailable ? 'PROVIDER_UNAVAILABLE' : 'DENIED',
      `OAuth2 token endpoint ${endpoint} answered error ${quoted(parsed.error)}${described}; ${
        unavailable ? 'try again later' : 'check the client id, secret and scopes'
      }`,
      { details: { status, error: parsed.error.slice(0, 40) } },
    );
  }
  if (typeof parsed?.access_token !== 'string' || parsed.access_token === '') {
    throw new ToolError('PROVIDER_UNAVAILABLE', 'OAuth2 token endpoint answered without an access_token');
  }
  if (/[^\x20-\x7e]/.test(parsed.access_token)) {
    // it could not be sent in a header (and must not be cached)
    throw new ToolError(
      'PROVIDER_UNAVAILABLE',
      'OAuth2 token endpoint answered an access_token with characters a header cannot carry',
    );
  }
  if (!isBearer(parsed.token_type)) {
    // RFC 6749 5.1: a client must understand the token type; a DPoP or MAC token sent as
    // "Bearer" fails at the API (it needs a proof this client does not make). Not cached.
    throw new ToolError(
      'CONFIG_INVALID',
      `OAuth2 token endpoint ${endpoint} issued a token of type ${quoted(parsed.token_type)}; only Bearer tokens are supported: register the client for Bearer tokens at the authorization server, or use a tokenUrl that issues them`,
      { details: { tokenType: String(parsed.token_type).slice(0, 40) } },
    );
  }
  return { token: parsed.access_token, lifetimeSeconds: lifetimeOf(parsed.expires_in) };
}

/** A token type this client can send: `Bearer` in any case (RFC 6749 5.1), or none given (common practice). */
function isBearer(tokenType: unknown): boolean {
  return (
    tokenType === undefined ||
    tokenType === null ||
    tokenType === '' ||
    (typeof tokenType === 'string' && tokenType.toLowerCase() === 'bearer')
  );
}

/** A value from an answer, as JSON and at most about 40 characters, for a message. */
function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * Seconds a token lives: `expires_in` as a number or numeric string (some servers send "3599"),
 * else an hour; a negative one means it has expired already.
 */
function lifetimeOf(expiresIn: unknown): number {
  if (typeof expiresIn === 'number' && Number.isFinite(expiresIn)) return Math.max(0, expiresIn);
  if (typeof expiresIn === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(expiresIn))
    return Math.max(0, Number(expiresIn));
  return 3600;
}
