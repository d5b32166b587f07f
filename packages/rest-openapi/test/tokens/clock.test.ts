import { createToolContext } from '@toolplane/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, getTool } from '../helpers/bad-input.js';
import { oauth, useCleanups } from '../helpers/fixtures.js';
import { issuingTokens } from '../helpers/issuing.js';

const cleanups = useCleanups();
const { server, provider } = cleanups;

afterEach(() => {
  vi.useRealTimers();
});

/** Only `Date` is faked: the wall clock can be stepped (NTP, suspend, a manual change) while time runs on. */
function fakeWallClock(): (stepMs: number) => void {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: false });
  vi.setSystemTime(Date.now());
  return (stepMs) => vi.setSystemTime(Date.now() + stepMs);
}

describe('OAuth2 token lifetimes are timed by a monotonic clock', () => {
  it('keeps reusing a fresh token when the wall clock jumps two hours ahead', async () => {
    const step = fakeWallClock();
    const { tokens, call, sent } = await issuingTokens(cleanups, 3600);
    await call();
    step(2 * 3600_000);
    await call();
    // the token lives an hour less 30 s of real time, not of wall-clock time: a clock step does
    // not make it look expired
    expect(sent()).toEqual(['Bearer tok-1', 'Bearer tok-1']);
    expect(tokens.requests).toHaveLength(1);
  });

  it('does not reuse an expired token when the wall clock steps back an hour', async () => {
    const step = fakeWallClock();
    // expires_in 0: expired already, it serves the one call that asked for it
    const { tokens, call, sent } = await issuingTokens(cleanups, 0);
    await call();
    step(-3600_000);
    await call();
    // it does not look fresh for the hour the clock went back
    expect(sent()).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(tokens.requests).toHaveLength(2);
  });

  it('times a Retry-After wait by the monotonic clock too', async () => {
    const step = fakeWallClock();
    const tokens = await server((_request, response) => {
      response.writeHead(429, { 'retry-after': '120', 'content-type': 'application/json' });
      response.end('{"error":"slow_down"}');
    });
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    expect(failure(await rest.execute('me', {}, createToolContext())).error.code).toBe('RATE_LIMITED');
    step(-24 * 3600_000);
    const waiting = failure(await rest.execute('me', {}, createToolContext()));
    // a clock stepped back a day does not make the wait a day long
    expect(waiting.error.code).toBe('RATE_LIMITED');
    expect(waiting.error.details?.retryAfterSeconds).toBeLessThanOrEqual(120);
    step(48 * 3600_000);
    // and a clock stepped ahead does not end the wait early
    const still = failure(await rest.execute('me', {}, createToolContext()));
    expect(still.error.details?.retryAfterSeconds).toBeGreaterThan(100);
    expect(tokens.requests).toHaveLength(1);
    expect(api.requests).toHaveLength(0);
  });
});
