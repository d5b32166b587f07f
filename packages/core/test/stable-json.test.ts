import { describe, expect, it } from 'vitest';
import { stableStringify } from '../src/stable-json.js';

it('gives equal strings for equal values regardless of key order', () => {
  expect(stableStringify({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
    stableStringify({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
  );
  expect(stableStringify({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
  expect(stableStringify([undefined])).toBe('[null]');
});

/** The keys sorted at every level, written out independently of the code under test. */
function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sortedCopy);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    Object.defineProperty(copy, key, {
      value: sortedCopy((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

describe('stableStringify on hostile values', () => {
  it('writes what JSON.stringify writes for sorted keys, on a mixed value', () => {
    const value = JSON.parse(
      '{"z":[1,"two",{"b":true,"a":null}],"a":{"y":-0.5,"x":"\\u2028\\"q\\""},"m":[],"n":{},"e":1e21}',
    ) as unknown;
    expect(stableStringify(value)).toBe(JSON.stringify(sortedCopy(value)));
    expect(stableStringify('a\nb')).toBe('"a\\nb"');
    expect(stableStringify(undefined)).toBe('null');
    expect(stableStringify({ f: () => 1, u: undefined, s: Symbol('x') })).toBe('{"f":null,"s":null}');
  });

  it('follows arrays and objects nested 100,000 deep without a RangeError', () => {
    const depth = 100_000;
    const arrays = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
    expect(stableStringify(arrays)).toBe(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    const objects = JSON.parse(`${'{"b":1,"a":'.repeat(depth)}0${'}'.repeat(depth)}`) as unknown;
    expect(stableStringify(objects)).toBe(`${'{"a":'.repeat(depth)}0${',"b":1}'.repeat(depth)}`);
  });

  it('keeps own keys named __proto__, constructor, toString as data', () => {
    const value = JSON.parse('{"toString":"t","__proto__":{"x":1},"constructor":{"y":[2]}}') as unknown;
    expect(stableStringify(value)).toBe('{"__proto__":{"x":1},"constructor":{"y":[2]},"toString":"t"}');
    expect(stableStringify(JSON.parse('{"__proto__":{"x":2}}'))).not.toBe(
      stableStringify(JSON.parse('{"__proto__":{"x":1}}')),
    );
  });

  it('writes a hole of a sparse array as null, so the output is JSON', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    const sparse = [, 1];
    expect(stableStringify(sparse)).toBe('[null,1]');
    expect(JSON.parse(stableStringify(sparse))).toEqual([null, 1]);
  });

  it('refuses a cycle with a TypeError saying so, and writes a shared value in each place', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = { back: loop };
    expect(() => stableStringify(loop)).toThrow(/refers back to itself/);
    const shared = { k: [1] };
    expect(stableStringify({ b: shared, a: shared })).toBe('{"a":{"k":[1]},"b":{"k":[1]}}');
  });

  it('writes an array of 300,000 items and an object of 50,000 keys', () => {
    const items = Array.from({ length: 300_000 }, (_, index) => index % 10);
    expect(stableStringify(items)).toBe(JSON.stringify(items));
    const wide: Record<string, number> = {};
    for (let index = 49_999; index >= 0; index--) wide[`k${index}`] = index;
    expect(stableStringify(wide)).toBe(JSON.stringify(sortedCopy(wide)));
  });
});
