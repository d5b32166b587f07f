import { describe, expect, it } from 'vitest';
import { linearRegExp } from '../src/linear-regexp.js';
import { patternTest } from '../src/pattern-engine.js';

describe('patternTest', () => {
  it.each([
    ['^(a+)+$', 'a'],
    ['^(a|a)*$', 'a'],
    ['^(a|aa)+$', 'a'],
    ['^(\\w+\\s?)*$', 'ab '],
    ['^(a+){10}$', 'a'],
    ['^([a-z]+)*[0-9]$', 'abc'],
    ['(x+x+)+y', 'x'],
    ['^(.*?,){11}P', 'a,'],
    ['a.*b.*c.*d', 'abc'],
    ['^(?:[a-z0-9]+\\.)*[a-z0-9]+$', 'a.'],
    [`^${'a?'.repeat(30)}${'a'.repeat(30)}$`, 'a'],
    [`^${'(?:a|a)'.repeat(30)}$`, 'a'],
    [
      '^(?<x>a|a)(?<y>a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)(?:a|a)b',
      'a',
    ],
  ])('%s on a crafted string answers what the linear engine answers', (pattern, unit) => {
    const tester = patternTest(pattern);
    expect(tester.partial).toBe(false);
    for (const text of [unit.repeat(3), `${unit.repeat(40)}!`, `${unit.repeat(5000)}!`]) {
      expect([text.length, tester.test(text)]).toEqual([text.length, linearRegExp(pattern)?.test(text)]);
    }
  });

  it('gives V8 the short strings of simple patterns, with the same verdicts', () => {
    for (const [pattern, text] of [
      ['^\\d{4}-\\d{2}-\\d{2}$', '2024-01-31'],
      ['^-?\\d+(\\.\\d+)?$', '-12.5'],
      ['^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', 'a@b.co'],
      ['^\\p{Lu}\\p{Ll}+$', 'Émile'],
    ] as const) {
      const native = new RegExp(pattern, 'u');
      for (const probe of [text, `${text}x`, `x${text}`, text.slice(1), '', text.repeat(500)]) {
        expect([pattern, probe.slice(0, 20), patternTest(pattern).test(probe)]).toEqual([
          pattern,
          probe.slice(0, 20),
          native.test(probe),
        ]);
      }
    }
  });

  it('runs a lookaround pattern in V8 on short strings only; longer ones count as matching', () => {
    const tester = patternTest('^(?!.*(.)\\1)(?=.*\\d)[a-z0-9]+$');
    expect(tester.partial).toBe(true);
    expect(tester.test('abc1')).toBe(true);
    expect(tester.test('abcd')).toBe(false);
    expect(tester.test('aab1')).toBe(false);
    expect(tester.test(`${'ab'.repeat(5000)}!`)).toBe(true);
  });

  it('never runs a group repeated without bound that the linear engine cannot run', () => {
    const tester = patternTest('^(a+)+\\1$');
    expect(tester.partial).toBe(true);
    expect(tester.test(`${'a'.repeat(40)}!`)).toBe(true);
  });

  it('throws for a pattern that is not ECMA-262', () => {
    expect(() => patternTest('(?i)a')).toThrow(SyntaxError);
  });
});
