import { type Middleware, ToolError, createRateLimiter, fail } from '@toolplane/core';

/** A token bucket per session. */
export interface RateLimitOptions {
  /** Calls allowed in a burst. */
  readonly capacity: number;
  /** Tokens added back per second. */
  readonly refillPerSecond: number;
}

/**
 * Refuses calls beyond a session's token bucket with `RATE_LIMITED` and when to retry. The
 * buckets are core's `createRateLimiter` (bounded: the least recently seen sessions are
 * forgotten past 10,000).
 */
export function rateLimitMiddleware(options: RateLimitOptions, now: () => number): Middleware {
  if (!(options.capacity >= 1) || !(options.refillPerSecond > 0)) {
    throw new ToolError(
      'CONFIG_INVALID',
      'rateLimit: capacity must be at least 1 call and refillPerSecond a positive number',
    );
  }
  const limiter = createRateLimiter({
    limit: options.refillPerSecond,
    windowMs: 1000,
    burst: options.capacity,
    now,
  });
  return {
    name: 'rate-limit',
    phase: 'limit',
    handle(call, next) {
      const key = call.ctx.session.id;
      const taken = limiter.take(key);
      if (taken.allowed) return next(call);
      return Promise.resolve(
        fail(
          'RATE_LIMITED',
          `session "${key}" is over its rate limit of ${options.capacity} calls (refilling ${options.refillPerSecond}/s); retry in ${taken.retryAfterMs} ms`,
          { details: { retryAfterMs: taken.retryAfterMs } },
        ),
      );
    },
  };
}
