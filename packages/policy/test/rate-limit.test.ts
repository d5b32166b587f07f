import { ToolError, ok } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRateLimiter, rateLimitMiddleware } from '../src/rate-limit.js';
import { call, tool } from './helpers.js';

describe('rate limiter', () => {
  it('allows a burst, then refills at the rate', () => {
    let time = 1_000;
    const limiter = createRateLimiter({ limit: 2, windowMs: 1_000, now: () => time });
    expect([limiter.take('s').allowed, limiter.take('s').allowed, limiter.take('s').allowed]).toEqual([
      true,
      true,
      false,
    ]);
    expect(limiter.take('s').retryAfterMs).toBe(500);
    expect(limiter.take('other').allowed).toBe(true);
    time += 500;
    expect(limiter.take('s').allowed).toBe(true);
    expect(limiter.take('s').allowed).toBe(false);
  });

  it('as middleware: RATE_LIMITED per session without reaching next', async () => {
    let reached = 0;
    const gate = rateLimitMiddleware(createRateLimiter({ limit: 1, windowMs: 60_000 }));
    const next = async () => {
      reached++;
      return ok('ran');
    };
    const target = tool('read', { sideEffect: 'read' });
    expect((await gate.handle?.(call(target, {}, { id: 'a' }), next))?.ok).toBe(true);
    const limited = await gate.handle?.(call(target, {}, { id: 'a' }), next);
    expect(limited).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED', retryable: true } });
    expect((await gate.handle?.(call(target, {}, { id: 'b' }), next))?.ok).toBe(true);
    expect(reached).toBe(2);
    expect(gate.phase).toBe('limit');
  });

  it('rejects bad settings with CONFIG_INVALID', () => {
    for (const options of [{ limit: 0 }, { limit: 1, windowMs: -1 }, { limit: 1, burst: 0 }]) {
      let thrown: unknown;
      try {
        createRateLimiter(options);
      } catch (error) {
        thrown = error;
      }
      expect(ToolError.isInstance(thrown) && thrown.code).toBe('CONFIG_INVALID');
    }
  });
});
