import { ToolError } from '@toolplane/core';
import type { Dispatcher } from 'undici';
import { MAX_TOKEN_WAIT_SECONDS, type TokenRequest, requestToken } from './token-request.js';

interface CachedToken {
  readonly token: string;
  /** On the monotonic clock of {@link OAuthTokenCache}, not the wall clock. */
  readonly expiresAt: number;
}

/**
 * Milliseconds of a clock that only runs forward: lifetimes and waits are durations, and a wall
 * clock stepped by NTP, a suspended laptop or a hand would make an expired token look fresh (or
 * a fresh one expired, and a Retry-After wait last a day). The global `performance` is read at
 * each call, so a test can move this clock with fake timers instead of waiting in real time.
 */
const monotonicNow = (): number => globalThis.performance.now();

/** Fetches and caches OAuth2 client-credentials tokens, one per token URL, client and scopes. */
export class OAuthTokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<CachedToken>>();
  /** Until when (ms) a token endpoint that answered 429 with Retry-After is left alone, per key. */
  private readonly waitUntil = new Map<string, { until: number; endpoint: string }>();
  /** The longest Retry-After honoured, in seconds: a hostile one cannot shut a provider out for days. */
  static readonly MAX_WAIT_SECONDS = MAX_TOKEN_WAIT_SECONDS;
  /**
   * Tokens obtained, newest last, for `secretValues()`: the last {@link OAuthTokenCache.KEPT}, so
   * a token endpoint that issues short-lived tokens (or an API that refuses each) cannot grow
   * memory with every call.
   */
  readonly issued = new Set<string>();
  static readonly KEPT = 256;
  /**
   * Credentials (token URL, client, scopes) whose token or Retry-After wait is kept, least
   * recently used dropped first: the key is read from `${VAR}` at each call, so a server that
   * rotates a client secret in its environment would otherwise keep an entry per secret for ever.
   */
  static readonly MAX_KEYS = 64;

  /** Aborted by {@link OAuthTokenCache.close}: token requests still running stop with it. */
  private readonly closing = new AbortController();
  /**
   * Ends the wait of each call waiting for a token, for {@link OAuthTokenCache.close}: one entry
   * per waiting call rather than a listener each on one long-lived signal (which Node warns about
   * past ten).
   */
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly timeoutMs = 30_000,
    private readonly now: () => number = monotonicNow,
    /** Judges a token endpoint's host before it is asked (public-only tools through an application's dispatcher). */
    private readonly checkHost?: (hostname: string, signal: AbortSignal) => Promise<string>,
  ) {}

  async token(config: TokenRequest, signal: AbortSignal): Promise<string> {
    if (this.closing.signal.aborted) throw closedWhileWaiting();
    const key = `${config.tokenUrl}\n${config.clientId}\n${config.clientSecret}\n${(config.scopes ?? []).join(' ')}\n${config.audience ?? ''}`;
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt > this.now()) {
      keepNewest(this.tokens, key, cached);
      return cached.token;
    }
    this.refuseWhileAskedToWait(key);
    let waiting = this.pending.get(key);
    if (!waiting) {
      // shared by every caller waiting for this token, so bounded by its own timeout rather
      // than by the signal of whichever caller happened to ask first
      waiting = this.fetchToken(
        config,
        AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.closing.signal]),
      )
        .catch((error: unknown) => {
          this.rememberWait(key, config.tokenUrl, error);
          throw error;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, waiting);
    }
    let fresh: CachedToken;
    try {
      fresh = await untilAborted(waiting, signal, this.waiters);
    } catch (error) {
      throw this.closing.signal.aborted ? closedWhileWaiting(error) : error;
    }
    // a token that arrives after close (through an application's dispatcher) is neither kept nor sent
    if (this.closing.signal.aborted) throw closedWhileWaiting();
    keepNewest(this.tokens, key, fresh);
    return fresh.token;
  }

  /**
   * Forgets every token and Retry-After wait and stops the token requests still running; a call
   * waiting for a token, or asking after this, fails `PROVIDER_UNAVAILABLE`. The tokens issued
   * stay in {@link OAuthTokenCache.issued}, for scrubbing what was logged with them.
   */
  close(): void {
    this.closing.abort();
    for (const stop of [...this.waiters]) stop();
    this.tokens.clear();
    this.pending.clear();
    this.waitUntil.clear();
  }

  /** A 429 with Retry-After: calls fail fast until then instead of asking again each time. */
  private rememberWait(key: string, tokenUrl: string, error: unknown): void {
    if (!ToolError.isInstance(error) || error.code !== 'RATE_LIMITED') return;
    const seconds = error.details?.retryAfterSeconds;
    if (typeof seconds !== 'number' || seconds <= 0) return;
    const url = new URL(tokenUrl);
    keepNewest(this.waitUntil, key, {
      until: this.now() + Math.min(seconds, OAuthTokenCache.MAX_WAIT_SECONDS) * 1000,
      endpoint: `${url.origin}${url.pathname}`,
    });
  }

  private refuseWhileAskedToWait(key: string): void {
    const wait = this.waitUntil.get(key);
    if (!wait) return;
    const left = Math.ceil((wait.until - this.now()) / 1000);
    if (left <= 0) {
      this.waitUntil.delete(key);
      return;
    }
    throw new ToolError(
      'RATE_LIMITED',
      `OAuth2 token endpoint ${wait.endpoint} answered HTTP 429 and asked to wait; it is not asked again for ${left} s`,
      { details: { status: 429, retryAfterSeconds: left } },
    );
  }

  /**
   * Forgets a token the API refused (401), so the next call fetches a new one instead of
   * reusing it until its `expires_in` (an hour by default, or for ever) has passed.
   */
  forget(token: string): void {
    for (const [key, cached] of this.tokens) if (cached.token === token) this.tokens.delete(key);
  }

  private async fetchToken(config: TokenRequest, signal: AbortSignal): Promise<CachedToken> {
    const { token, lifetimeSeconds } = await requestToken(this.dispatcher, config, signal, this.checkHost);
    // Renew a little early so a token does not expire in flight: 30 s before, or halfway
    // through a shorter life (a 20 s token is reused for 10 s, not thrown away unused).
    const expiresAt = this.now() + (lifetimeSeconds - Math.min(30, lifetimeSeconds / 2)) * 1000;
    this.issued.delete(token);
    this.issued.add(token);
    for (const oldest of this.issued) {
      if (this.issued.size <= OAuthTokenCache.KEPT) break;
      this.issued.delete(oldest);
    }
    return { token, expiresAt };
  }
}

/** The failure of a call that waited for (or asked for) a token when its provider was closed. */
function closedWhileWaiting(cause?: unknown): ToolError {
  return new ToolError(
    'PROVIDER_UNAVAILABLE',
    'the call was stopped because its provider was closed while it waited for an OAuth2 token',
    { retryable: false, ...(cause === undefined ? {} : { cause }) },
  );
}

/** Sets `key` as the most recently used entry, dropping the least recently used past the bound. */
function keepNewest<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= OAuthTokenCache.MAX_KEYS) break;
    map.delete(oldest);
  }
}

/**
 * Waits for `promise` unless `signal` aborts or `waiters` is told to stop first (the promise keeps
 * running for others; a fetch still connecting is settled by undici only once it connects or
 * its connect timeout passes).
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, waiters: Set<() => void>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const done = (): void => {
      signal.removeEventListener('abort', onAbort);
      waiters.delete(onClose);
    };
    const onAbort = (): void => {
      done();
      reject(signal.reason);
    };
    const onClose = (): void => {
      done();
      reject(new Error('closed'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    waiters.add(onClose);
    promise.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}
