import { type Middleware, fail } from '@toolplane/core';

/** A token bucket per session. */
export interface RateLimitOptions {
  /** Calls allowed in a burst. */
  readonly capacity: number;
  /** Tokens added back per second. */
  readonly refillPerSecond: number;
}

/** Refuses calls beyond a session's token bucket with `RATE_LIMITED` and when to retry. */
export function rateLimitMiddleware(options: RateLimitOptions, now: () => number): Middleware {
  if (!(options.capacity > 0) || !(options.refillPerSecond > 0)) {
    throw new Error('rateLimit: capacity and refillPerSecond must be positive numbers');
  }
  const buckets = new Map<string, { tokens: number; updatedAt: number }>();
  return {
    name: 'rate-limit',
    phase: 'limit',
    handle(call, next) {
      const key = call.ctx.session.id;
      const at = now();
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { tokens: options.capacity, updatedAt: at };
        buckets.set(key, bucket);
      }
      bucket.tokens = Math.min(
        options.capacity,
        bucket.tokens + ((at - bucket.updatedAt) / 1000) * options.refillPerSecond,
      );
      bucket.updatedAt = at;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return next(call);
      }
      const retryAfterMs = Math.ceil(((1 - bucket.tokens) / options.refillPerSecond) * 1000);
      return Promise.resolve(
        fail(
          'RATE_LIMITED',
          `session "${key}" is over its rate limit of ${options.capacity} calls (refilling ${options.refillPerSecond}/s); retry in ${retryAfterMs} ms`,
          { details: { retryAfterMs } },
        ),
      );
    },
  };
}
