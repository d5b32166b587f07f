import { findAddressDenied as addressDenied, pinnedDispatch } from '@toolplane/address-guard';
import { PUBLIC_ONLY_HINT } from './public-agent.js';
import { ToolError } from '@toolplane/core';
import type { Dispatcher } from 'undici';
import { untilAborted } from './call-stop.js';
import { bodyText, decodeContent } from './decode.js';
import { encodeStrict } from './encoding.js';
import { readCapped, retryAfterOf } from './response.js';
import { readTokenAnswer } from './token-answer.js';
import { protocolProblem } from './transport-errors.js';

/** The longest `Retry-After` of a token endpoint honoured, in seconds: a hostile one cannot shut a provider out for days. */
export const MAX_TOKEN_WAIT_SECONDS = 300;

/** What a client-credentials token request needs (values already read from the environment). */
export interface TokenRequest {
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes?: readonly string[];
  readonly audience?: string;
}

/**
 * Asks the token endpoint for a token (RFC 6749 4.4): the client id and secret in HTTP Basic, the
 * form in the body, no redirect followed, the answer read up to 64 KiB. Every failure is a
 * `ToolError` naming the token endpoint (origin and path, never its query).
 */
export async function requestToken(
  dispatcher: Dispatcher,
  config: TokenRequest,
  signal: AbortSignal,
  checkHost?: (hostname: string, signal: AbortSignal) => Promise<string>,
): Promise<{ token: string; lifetimeSeconds: number }> {
  const url = tokenEndpoint(config.tokenUrl);
  const form = [`grant_type=client_credentials`];
  if (config.scopes && config.scopes.length > 0) form.push(`scope=${encodeStrict(config.scopes.join(' '))}`);
  if (config.audience) form.push(`audience=${encodeStrict(config.audience)}`);
  // RFC 6749 2.3.1: client credentials go in HTTP Basic, each part form-encoded first.
  const basic = Buffer.from(`${encodeStrict(config.clientId)}:${encodeStrict(config.clientSecret)}`).toString(
    'base64',
  );
  let response: Dispatcher.ResponseData;
  try {
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      authorization: `Basic ${basic}`,
    };
    // an application's dispatcher is pinned to the address checked (it would resolve the name again)
    const target = checkHost
      ? pinnedDispatch(url.origin, await checkHost(url.hostname, signal), headers)
      : { origin: url.origin, headers };
    // ends at its timeout or the provider's close even while undici is still connecting
    response = await untilAborted(
      dispatcher.request({
        ...target,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        body: form.join('&'),
        signal,
      }),
      signal,
    );
  } catch (error) {
    throw transportError(error, url, 'is unreachable');
  }
  // a token answer is small; a token URL that streams megabytes is read no further than 64 KiB
  let read: Awaited<ReturnType<typeof readCapped>>;
  try {
    read = await readCapped(response.body, 64 * 1024);
  } catch (error) {
    // the API was not asked yet: name the endpoint that failed
    throw transportError(error, url, 'broke off its answer');
  }
  const contentEncoding = response.headers['content-encoding'];
  try {
    // compressed although not asked for, as some servers do: decoded, within the same 64 KiB
    read = decodeContent(read, typeof contentEncoding === 'string' ? contentEncoding : undefined, 64 * 1024);
  } catch (error) {
    // on an error status the body is kept as it came: the status says what went wrong
    if (response.statusCode >= 200 && response.statusCode < 300)
      throw new ToolError(
        'PROVIDER_UNAVAILABLE',
        `OAuth2 token endpoint ${url.origin}${url.pathname} answered with content-encoding: ${contentEncoding} but its body does not decode`,
        { cause: error },
      );
  }
  const contentType = response.headers['content-type'];
  const text = bodyText(read.bytes, typeof contentType === 'string' ? contentType : undefined);
  if (response.statusCode >= 300 && response.statusCode < 400) {
    throw new ToolError('DENIED', redirectMessage(url, response.statusCode, response.headers.location), {
      details: { status: response.statusCode },
    });
  }
  const retryAfter = response.headers['retry-after'];
  if (response.statusCode === 429) {
    // the wait the provider keeps to (calls needing this token fail fast meanwhile)
    const asked = retryAfterOf(retryAfter);
    const seconds = asked === undefined ? undefined : Math.min(asked, MAX_TOKEN_WAIT_SECONDS);
    throw new ToolError(
      'RATE_LIMITED',
      `OAuth2 token endpoint answered HTTP 429: ${text.slice(0, 300)}; wait before calling again`,
      { details: { status: 429, ...(seconds === undefined ? {} : { retryAfterSeconds: seconds }) } },
    );
  }
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw new ToolError(
      response.statusCode >= 500 ? 'PROVIDER_UNAVAILABLE' : 'DENIED',
      `OAuth2 token endpoint answered HTTP ${response.statusCode}: ${text.slice(0, 300)}; check the client id, secret and scopes`,
      { details: { status: response.statusCode } },
    );
  }
  if (read.overflow) {
    throw new ToolError(
      'PROVIDER_UNAVAILABLE',
      `OAuth2 token endpoint ${url.origin}${url.pathname} answered more than 64 KiB; check that tokenUrl is the token endpoint`,
    );
  }
  return readTokenAnswer(text, `${url.origin}${url.pathname}`, response.statusCode);
}

/** A token request that failed on the way: the provider closed, time ran out, or else `what` happened. */
function transportError(error: unknown, url: URL, what: string): ToolError {
  const denied = addressDenied(error);
  if (denied)
    return new ToolError(
      'DENIED',
      `OAuth2 token endpoint ${url.origin}${url.pathname} was not asked: ${denied.message}; ${PUBLIC_ONLY_HINT}`,
      { cause: error },
    );
  const broken = protocolProblem(error);
  if (broken !== undefined)
    return new ToolError(
      'EXECUTION_FAILED',
      `OAuth2 token endpoint ${url.origin}${url.pathname} answered with ${broken}; the token endpoint or a proxy in between is misbehaving, so trying again will not help until it is fixed (the API was not called)`,
      { retryable: false, cause: error },
    );
  return (
    closedError(error) ??
    timeoutError(error, url) ??
    new ToolError('PROVIDER_UNAVAILABLE', `OAuth2 token endpoint ${url.origin}${url.pathname} ${what}`, {
      cause: error,
    })
  );
}

/** The failure of calls that waited for a token when the provider closed (undici's dispatcher destroyed). */
function closedError(error: unknown): ToolError | undefined {
  if ((error as { code?: unknown } | null)?.code !== 'UND_ERR_DESTROYED') return undefined;
  return new ToolError(
    'PROVIDER_UNAVAILABLE',
    'the call was stopped because its provider was closed while it waited for an OAuth2 token',
    { retryable: false, cause: error, details: { cause: 'UND_ERR_DESTROYED' } },
  );
}

const TIMEOUT_CODES: ReadonlySet<unknown> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** A token request that ran out of time (connect, headers, body, or the token fetch's own limit). */
function timeoutError(error: unknown, url: URL): ToolError | undefined {
  const failed = error as { code?: unknown; name?: unknown } | null;
  if (!TIMEOUT_CODES.has(failed?.code) && failed?.name !== 'TimeoutError') return undefined;
  return new ToolError(
    'TIMEOUT',
    `OAuth2 token endpoint ${url.origin}${url.pathname} sent no answer in time (${String(typeof failed?.code === 'string' ? failed.code : failed?.name)}); try again later`,
    { cause: error },
  );
}

/** Why a tokenUrl cannot be used, or undefined: an absolute http(s) URL without user info. */
export function tokenUrlProblem(tokenUrl: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(tokenUrl);
  } catch {
    url = undefined;
  }
  const fine =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '';
  return fine
    ? undefined
    : 'tokenUrl must be an absolute http(s) URL without user info (the client id and secret go in clientId and clientSecret), such as https://auth.example.com/oauth/token';
}

function tokenEndpoint(tokenUrl: string): URL {
  const problem = tokenUrlProblem(tokenUrl);
  if (problem) throw new ToolError('CONFIG_INVALID', `auth (oauth2-client-credentials) ${problem}`);
  return new URL(tokenUrl);
}

function redirectMessage(url: URL, status: number, location: unknown): string {
  let target = 'another location';
  try {
    const next = new URL(String(location), url);
    target = `${next.origin}${next.pathname}`;
  } catch {
    // an unreadable Location: named generically
  }
  return `OAuth2 token endpoint ${url.origin}${url.pathname} redirected to ${target} (HTTP ${status}); redirects are not followed, so the client secret is not sent on: set tokenUrl to the token endpoint itself if you trust it`;
}
