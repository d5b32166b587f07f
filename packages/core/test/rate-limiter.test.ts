import { expect, it } from 'vitest';
import { createRateLimiter } from '../src/rate-limiter.js';

it('allows a burst, refills at the rate, and forgets the least recently seen keys past its bound', () => {
  let now = 0;
  const limiter = createRateLimiter({ limit: 2, windowMs: 1000, burst: 3, now: () => now, maxKeys: 2 });
  expect([1, 2, 3, 4].map(() => limiter.take('a').allowed)).toEqual([true, true, true, false]);
  expect(limiter.take('a').retryAfterMs).toBe(500);
  now = 500; // one token back
  expect(limiter.take('a').allowed).toBe(true);
  limiter.take('b');
  limiter.take('c'); // 'a' is the least recently seen of three: forgotten, back to a full burst
  expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, true]);
  expect(() => createRateLimiter({ limit: 0 })).toThrow(/limit and windowMs/);
});
