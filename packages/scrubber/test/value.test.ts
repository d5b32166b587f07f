import { describe, expect, it } from 'vitest';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

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

describe('structured values at the edges', () => {
  const scrubber = createScrubber();
  const githubToken = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
  const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;

  it('scrubs objects and arrays nested 100,000 deep without overflowing the stack', () => {
    let object: unknown = { password, note: `uses ${githubToken}` };
    for (let i = 0; i < 100_000; i++) object = { child: object };
    let cursor = scrubber.scrubValue(object) as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++) cursor = cursor.child as Record<string, unknown>;
    expect(cursor).toEqual({ password: '[REDACTED:password]', note: 'uses [REDACTED:github_token]' });

    let array: unknown = [githubToken];
    for (let i = 0; i < 100_000; i++) array = [array, 1];
    let item = scrubber.scrubValue(array) as unknown[];
    for (let i = 0; i < 100_000; i++) {
      expect(item[1]).toBe(1);
      item = item[0] as unknown[];
    }
    expect(item).toEqual(['[REDACTED:github_token]']);
  });

  it('keeps a `__proto__` key as data when walking (the walk runs for BigInt or cycles)', () => {
    const value = JSON.parse(`{"__proto__": {"note": "with ${githubToken}"}, "n": 1}`) as Record<
      string,
      unknown
    >;
    value.big = 10n;
    const scrubbed = scrubber.scrubValue(value);
    expect(Object.getPrototypeOf(scrubbed)).toBe(Object.prototype);
    expect(Object.keys(scrubbed)).toEqual(['__proto__', 'n', 'big']);
    expect(Object.getOwnPropertyDescriptor(scrubbed, '__proto__')?.value).toEqual({
      note: 'with [REDACTED:github_token]',
    });
  });

  it('keeps an object shared by two parents (not a cycle) in both places, scrubbed', () => {
    const shared = { token_note: `t ${githubToken}` };
    const value = { a: shared, b: shared, big: 1n, list: [shared] };
    const scrubbed = scrubber.scrubValue(value);
    const expected = { token_note: 't [REDACTED:github_token]' };
    expect(scrubbed.a).toEqual(expected);
    expect(scrubbed.b).toEqual(expected);
    expect(scrubbed.list).toEqual([expected]);
  });

  it('keeps both entries when two keys are redacted to the same marker (no value lost)', () => {
    const other = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
    const scrubbed = scrubber.scrubValue({
      tokens: { [githubToken]: { scopes: 'repo' }, [other]: { scopes: 'admin' } },
      password,
    });
    expect(scrubbed).toEqual({
      tokens: {
        '[REDACTED:github_token]': { scopes: 'repo' },
        '[REDACTED:github_token] #2': { scopes: 'admin' },
      },
      password: '[REDACTED:password]',
    });
  });

  it('copies a DAG whose paths double at every level once per object (30 levels: 2^30 paths)', () => {
    let node: Record<string, unknown> = { leaf: `k ${githubToken}`, big: 2n };
    for (let i = 0; i < 30; i++) node = { left: node, right: node, big: 1n };
    let scrubbed = scrubber.scrubValue(node) as Record<string, unknown>;
    for (let i = 0; i < 30; i++) scrubbed = scrubbed.right as Record<string, unknown>;
    expect(scrubbed.leaf).toBe('k [REDACTED:github_token]');
  });
});
