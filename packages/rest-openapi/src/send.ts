import { type ToolContext, ToolError, type ToolResult, errorMessage, fail, onAbort } from '@toolplane/core';
import type { Dispatcher } from 'undici';
import { type LookupFunction, checkHostAddresses, pinnedDispatch } from '@toolplane/address-guard';
import { type AppliedAuth, applyAuth } from './auth.js';
import { CallStop, untilStopped } from './call-stop.js';
import type { OAuthTokenCache } from './oauth-tokens.js';
import type { RestAuthConfig, RestToolConfig } from './config.js';
import { decodeResponse } from './decode.js';
import { type ArgumentPlan, buildRequest } from './request-builder.js';
import { readCapped, toResult } from './response.js';
import { decodeStream } from './stream-decode.js';
import { bodySecretsRefused, nextRequest, redirectTarget, targetOf } from './redirects.js';
import { type StreamStop, readJsonStream } from './streaming.js';
import { transportFailure } from './transport-errors.js';

/** Everything one call needs. */
export interface SendOptions {
  readonly tool: string;
  readonly config: RestToolConfig;
  readonly plan: ArgumentPlan;
  readonly auth: readonly RestAuthConfig[];
  readonly args: Readonly<Record<string, unknown>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly ctx: ToolContext;
  readonly dispatcher: Dispatcher;
  /** The provider's own public-only agent for `publicAddressesOnly` tools (none when the application passed a dispatcher). */
  readonly publicDispatcher?: Dispatcher;
  /** Resolves hosts of `publicAddressesOnly` tools sent through the application's dispatcher. */
  readonly lookup?: LookupFunction;
  readonly tokens: OAuthTokenCache;
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly headersTimeoutMs?: number;
  readonly bodyTimeoutMs?: number;
  /** Registers what stops this call when its provider closes; returns the unregistration. */
  readonly onClose?: (stop: () => void) => () => void;
}

/** The caller's signal bounded by the call timeout, for the (rare) OAuth2 token wait. */
function authSignal(caller: AbortSignal, timeoutMs: number): AbortSignal {
  return AbortSignal.any([caller, AbortSignal.timeout(timeoutMs)]);
}

const NO_AUTH: AppliedAuth = { headers: {}, query: [], cookies: [], secrets: [], obtainedTokens: [] };

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A header sent on one line or several (which HTTP joins into one comma-separated list). */
function fieldList(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Sends one tool call: credentials, redirects within allowed hosts, timeouts, byte cap, streaming. */
export async function sendToolRequest(options: SendOptions): Promise<ToolResult> {
  const { config, ctx } = options;
  let request = buildRequest(options);
  const ownHost = request.host;
  // undici accepts an EventEmitter as the abort signal; one per call carries the caller's abort,
  // the call's own timeout and the provider's close. (An AbortController plus AbortSignal.any costs
  // tens of microseconds per call on loopback, measured in bench/.) The caller's cancellation is
  // heard through core's onAbort: through the orchestrator a call without auth that succeeds
  // creates no AbortSignal at all (auth gets the signal it needs, a failure reads the signal's reason).
  const abort = new CallStop();
  const stopListening = onAbort(ctx, () => abort.stop('cancelled'));
  if (abort.aborted) {
    return transportFailure(new Error('aborted'), {
      target: targetOf(request),
      callerSignal: ctx.signal,
      timedOut: false,
      timeoutMs: options.timeoutMs,
    });
  }
  const stopOnClose = options.onClose?.(() => abort.stop('closed'));
  let streamStop: StreamStop | undefined;
  // the application's dispatcher: a public-only tool's host is looked up here, until the call ends
  const lookupStop =
    config.publicAddressesOnly === true && !options.publicDispatcher ? new AbortController() : undefined;
  if (lookupStop) abort.once('abort', () => lookupStop.abort(new Error('aborted')));
  const timer = setTimeout(() => {
    streamStop = 'timeout';
    abort.stop('timeout');
  }, options.timeoutMs);
  let target = targetOf(request);
  // the current hop's headers arrived: a connection lost after that was lost mid-body
  let answered = false;
  const waiting: { tokenEndpoint?: string; readonly apiOrigin: string } = { apiOrigin: request.origin };
  try {
    const applied =
      options.auth.length === 0
        ? NO_AUTH
        : await applyAuth(
            options.auth,
            options.env,
            options.tokens,
            options.auth.some((entry) => entry.type === 'oauth2-client-credentials')
              ? authSignal(ctx.signal, options.timeoutMs)
              : ctx.signal,
            waiting,
          );
    // credentials are for the configured origin: auth's headers and headers filled from ${VAR}
    const authHeaderNames = [...Object.keys(applied.headers), ...options.plan.envHeaders];
    if (applied !== NO_AUTH) {
      request = {
        ...request,
        headers: { ...request.headers, ...applied.headers },
        ...(applied.query.length > 0
          ? { path: `${request.path}${request.path.includes('?') ? '&' : '?'}${applied.query.join('&')}` }
          : {}),
      };
    }
    if (applied.cookies.length > 0) {
      const cookie = request.headers.cookie;
      request.headers.cookie = cookie
        ? `${cookie}; ${applied.cookies.join('; ')}`
        : applied.cookies.join('; ');
    }
    const maxRedirects = config.maxRedirects ?? 5;
    const publicOnly = config.publicAddressesOnly === true;
    const dispatcher = (publicOnly && options.publicDispatcher) || options.dispatcher;
    for (let hop = 0; ; hop++) {
      target = targetOf(request);
      const dispatch: Dispatcher.RequestOptions = {
        origin: request.origin,
        path: request.path,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal: abort,
      };
      if (options.headersTimeoutMs !== undefined) dispatch.headersTimeout = options.headersTimeoutMs;
      if (options.bodyTimeoutMs !== undefined) dispatch.bodyTimeout = options.bodyTimeoutMs;
      // the application's dispatcher connects on its own: its host is judged before each hop
      // a resolver that never answers ends with the call's timeout or the caller's cancellation
      // and the request is pinned to the address checked, so the dispatcher does not resolve it again
      if (lookupStop) {
        const address = await checkHostAddresses(new URL(request.origin).hostname, {
          ...(options.lookup ? { lookup: options.lookup } : {}),
          signal: lookupStop.signal,
        });
        Object.assign(dispatch, pinnedDispatch(request.origin, address, request.headers));
      }
      answered = false;
      const response = await untilStopped(dispatcher.request(dispatch), abort);
      answered = true;
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode) && Array.isArray(location) && maxRedirects > 0) {
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        return fail(
          'EXECUTION_FAILED',
          `${target} redirected (HTTP ${response.statusCode}) with ${location.length} location headers, so where it points is unclear and neither was followed; the server or a proxy in between is misconfigured`,
        );
      }
      if (REDIRECTS.has(response.statusCode) && typeof location === 'string' && maxRedirects > 0) {
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        if (hop >= maxRedirects) {
          return fail(
            'EXECUTION_FAILED',
            `${target} redirected more than ${maxRedirects} times; the endpoint may loop`,
            {
              details: { status: response.statusCode, maxRedirects },
            },
          );
        }
        const next = redirectTarget(request, location, ownHost, config.allowedRedirectHosts ?? []);
        if ('error' in next) return next.error;
        const refused = bodySecretsRefused(request, next.url, response.statusCode, options.plan.envBody);
        if (refused) return refused;
        request = nextRequest(request, next.url, response.statusCode, authHeaderNames);
        continue;
      }
      // a refused OAuth2 token (revoked, or shorter-lived than expires_in said) is fetched anew next time
      if (response.statusCode === 401)
        for (const token of applied.obtainedTokens) options.tokens.forget(token);
      const contentTypeHeader = response.headers['content-type'];
      const contentType = typeof contentTypeHeader === 'string' ? contentTypeHeader : undefined;
      const retryAfterHeader = response.headers['retry-after'];
      const facts = {
        status: response.statusCode,
        contentType,
        retryAfter: typeof retryAfterHeader === 'string' ? retryAfterHeader : undefined,
        target,
      };
      if (config.streaming && response.statusCode >= 200 && response.statusCode < 300) {
        const encoding = fieldList(response.headers['content-encoding']);
        const decoded = decodeStream(response.body, encoding, target);
        return await readJsonStream({
          body: decoded.body,
          config: config.streaming,
          maxBytes: config.streaming.maxBytes ?? options.maxResponseBytes,
          target,
          progress: (update) => ctx.progress(update),
          stopped: () => streamStop,
          failed: (error) =>
            decoded.broken()
              ? fail(
                  'EXECUTION_FAILED',
                  `${target} streamed its answer with content-encoding: ${String(encoding).slice(0, 100)} but it does not decode (${errorMessage(error)}); the server or a proxy in between is misconfigured`,
                )
              : transportFailure(error, {
                  target,
                  callerSignal: ctx.signal,
                  timedOut: abort.reason === 'timeout',
                  closed: abort.reason === 'closed',
                  timeoutMs: options.timeoutMs,
                  answered: true,
                }),
        });
      }
      const lengthHeader = response.headers['content-length'];
      const declared = typeof lengthHeader === 'string' ? Number(lengthHeader) : Number.NaN;
      // a HEAD answer (and a 204 or 304) declares the length of a body it does not send
      const bodiless =
        request.method === 'HEAD' || response.statusCode === 204 || response.statusCode === 304;
      if (
        !bodiless &&
        Number.isFinite(declared) &&
        declared > options.maxResponseBytes &&
        response.statusCode < 300
      ) {
        // destroying an unread body emits 'error' (aborted): heard here, not thrown at the process
        response.body.on('error', () => undefined);
        response.body.destroy();
        return toResult(facts, { bytes: Buffer.alloc(0), overflow: true }, options.maxResponseBytes);
      }
      const encoding = fieldList(response.headers['content-encoding']);
      const read = decodeResponse(
        await readCapped(response.body, options.maxResponseBytes),
        encoding,
        options.maxResponseBytes,
        response.statusCode,
        target,
      );
      return toResult(facts, read, options.maxResponseBytes);
    }
  } catch (error) {
    const timedOut = abort.reason === 'timeout';
    if (!timedOut && !ctx.signal.aborted && ToolError.isInstance(error)) throw error;
    const timeout = timedOut || (error as { name?: unknown } | null)?.name === 'TimeoutError';
    if (waiting.tokenEndpoint !== undefined && timeout && !ctx.signal.aborted) {
      // the API was never asked: name the endpoint that kept the call waiting
      return fail(
        'TIMEOUT',
        `OAuth2 token endpoint ${waiting.tokenEndpoint} did not answer within ${options.timeoutMs} ms, so ${target} was not sent; try again or raise timeoutMs`,
        { details: { timeoutMs: options.timeoutMs } },
      );
    }
    return transportFailure(error, {
      target,
      callerSignal: ctx.signal,
      timedOut,
      closed: abort.reason === 'closed',
      timeoutMs: options.timeoutMs,
      answered,
    });
  } finally {
    clearTimeout(timer);
    stopListening();
    stopOnClose?.();
  }
}
