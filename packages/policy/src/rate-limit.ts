import { type Middleware, type RateLimiter, type ToolCall, fail } from '@toolplane/core';

// The token bucket lives in core (the orchestrator's per-session limit uses it too); it is
// re-exported here so policy users keep one import.
export { type RateLimiter, type RateLimiterOptions, createRateLimiter } from '@toolplane/core';

/** Options of {@link rateLimitMiddleware}. */
export interface RateLimitMiddlewareOptions {
  /** What is limited; the session id by default. */
  readonly key?: (call: ToolCall) => string;
}

/**
 * Rate limiting as orchestrator middleware (`phase: 'limit'`, after the policy gate): a call
 * over the limit fails with `RATE_LIMITED` and a retry time, without reaching the provider.
 *
 * @example
 * orchestrator.use(rateLimitMiddleware(createRateLimiter({ limit: 30, windowMs: 60_000 })));
 */
export function rateLimitMiddleware(
  limiter: RateLimiter,
  options: RateLimitMiddlewareOptions = {},
): Middleware {
  const keyOf = options.key ?? ((call: ToolCall) => call.ctx.session.id);
  return {
    name: 'rate-limit',
    phase: 'limit',
    async handle(call, next) {
      const key = keyOf(call);
      const taken = limiter.take(key);
      if (taken.allowed) return next(call);
      return fail(
        'RATE_LIMITED',
        `too many tool calls for ${key}; retry in ${Math.ceil(taken.retryAfterMs / 1000)} s`,
        { details: { retryAfterMs: taken.retryAfterMs } },
      );
    },
  };
}
