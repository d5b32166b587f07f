import { expect, it } from 'vitest';
import { stableStringify } from './stable-json.js';

it('gives equal strings for equal values regardless of key order', () => {
  expect(stableStringify({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
    stableStringify({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
  );
  expect(stableStringify({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
  expect(stableStringify([undefined])).toBe('[null]');
});
