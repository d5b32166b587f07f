import { ToolError } from './errors.js';

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Calls allowed per window. */
  readonly limit: number;
  /** Window length in milliseconds. Default 60000. */
  readonly windowMs?: number;
  /** Calls allowed at once before the rate applies. Default `limit`. */
  readonly burst?: number;
  /** Clock (epoch ms); `Date.now` by default. */
  readonly now?: () => number;
  /** Keys remembered at most (least recently used dropped first). Default 10000. */
  readonly maxKeys?: number;
}

/** A token bucket per key (design document 002: per-session rate limiting), bounded in keys. */
export interface RateLimiter {
  /** Takes one call for `key`; `retryAfterMs` is 0 when allowed. */
  take(key: string): { readonly allowed: boolean; readonly retryAfterMs: number };
}

/**
 * A token-bucket rate limiter: `limit` calls per `windowMs`, up to `burst` at once.
 *
 * @example
 * const limiter = createRateLimiter({ limit: 60, windowMs: 60_000 });
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const windowMs = options.windowMs ?? 60_000;
  const burst = options.burst ?? options.limit;
  if (!(options.limit > 0) || !(windowMs > 0) || !(burst >= 1))
    throw new ToolError('CONFIG_INVALID', 'rate limit: limit and windowMs must be > 0 and burst >= 1');
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  const perMs = options.limit / windowMs;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const time = now();
      let bucket = buckets.get(key);
      if (bucket) buckets.delete(key);
      else bucket = { tokens: burst, at: time };
      bucket.tokens = Math.min(burst, bucket.tokens + (time - bucket.at) * perMs);
      bucket.at = time;
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value as string);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true, retryAfterMs: 0 };
      }
      return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / perMs) };
    },
  };
}
