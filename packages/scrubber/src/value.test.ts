import { describe, expect, it } from 'vitest';
import { createScrubber } from './scrubber.js';
import { ALPHABETS, createFakeSource } from './testing/fake.js';

const fake = createFakeSource();

describe('scrubValue', () => {
  const scrubber = createScrubber();
  const token = `glpat-${fake.chars(ALPHABETS.alnum, 20)}`;
  const password = `${fake.chars(ALPHABETS.alnum, 10)}#1`;

  it('redacts inside strings, uses key names as context, and keeps the value valid JSON', () => {
    const value = {
      user: 'bob',
      password,
      nested: [{ headers: { Authorization: `Bearer ${token}` } }, `clone with ${token}`],
      count: 3,
      flag: false,
      nothing: null,
      quote: 'she said "hi" \\ ok',
    };
    const scrubbed = scrubber.scrubValue(value);
    expect(scrubbed).toEqual({
      user: 'bob',
      password: '[REDACTED:password]',
      nested: [
        { headers: { Authorization: 'Bearer [REDACTED:gitlab_token]' } },
        'clone with [REDACTED:gitlab_token]',
      ],
      count: 3,
      flag: false,
      nothing: null,
      quote: 'she said "hi" \\ ok',
    });
    expect(JSON.parse(JSON.stringify(scrubbed))).toEqual(scrubbed);
    expect(value.password).toBe(password); // the input is not mutated
  });

  it('returns the same value when nothing is found, and handles primitives', () => {
    const clean = { a: [1, 2, { b: 'text' }] };
    expect(scrubber.scrubValue(clean)).toBe(clean);
    expect(scrubber.scrubValue(42)).toBe(42);
    expect(scrubber.scrubValue(null)).toBe(null);
    expect(scrubber.scrubValue(`x ${token}`)).toBe('x [REDACTED:gitlab_token]');
  });

  it('falls back to a walk for values JSON cannot serialise (cycles, BigInt)', () => {
    const cyclic: Record<string, unknown> = { secret_token: token, big: 10n };
    cyclic.self = cyclic;
    const scrubbed = scrubber.scrubValue(cyclic) as Record<string, unknown>;
    expect(scrubbed.secret_token).toBe('[REDACTED:gitlab_token]');
    expect(scrubbed.big).toBe(10n);
    expect(scrubbed.self).toBe('[Circular]');
  });

  it('redacts numeric-looking secrets under credential keys without breaking JSON', () => {
    const scrubbed = scrubber.scrubValue({ pin_password: 12345678901, other: 'ok' });
    expect(JSON.parse(JSON.stringify(scrubbed))).toEqual(scrubbed);
  });
});
