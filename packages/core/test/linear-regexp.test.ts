import { describe, expect, it } from 'vitest';
import { linearRegExp, toRe2Syntax } from '../src/linear-regexp.js';

/** Strings that tell the pattern kinds below apart. */
const INPUTS = [
  '',
  'a',
  'A',
  'abc',
  'ABC123',
  'a_b',
  '123',
  '١٢٣', // Arabic-Indic digits: not \d
  '٣',
  ' ',
  '\t',
  '\n',
  'a\n',
  '\na',
  '\r',
  '\u000b',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  'é',
  'É',
  'ß',
  'ſ',
  'K', // Kelvin sign
  'α',
  'Ω',
  'я',
  '中文',
  '😀',
  'a😀b',
  '\ud83d', // a lone surrogate
  'x.y',
  'x/y',
  'a-b',
  '[a]',
  '{}',
  'foo@example.com',
  '2024-01-31',
  'v1.2.3',
  '-12.5',
  'a b\tc',
  '\u0000',
  '\u0008',
];

/** Patterns as JSON Schemas write them, of every kind the translation handles. */
const PATTERNS = [
  '^\\d+$',
  '\\d',
  '\\D',
  '^\\w+$',
  '\\W',
  '\\s',
  '^\\S+$',
  '^\\s*$',
  '.',
  '^.$',
  '^..$',
  '^.*$',
  '^a$',
  'a$',
  '^a',
  '^$',
  '\\bb',
  'a\\B',
  '^[a-z]+$',
  '^[^a-z]+$',
  '^[A-Za-z0-9_-]+$',
  '[\\s\\S]',
  '[\\d.]',
  '^[\\w.@]+$',
  '[\\S]',
  '[\\b]',
  '^[.]$',
  '^[[:alpha:]\\]$',
  '^[\\^]',
  '^[-a]$',
  '\\p{L}',
  '^\\p{L}+$',
  '^\\p{Lu}$',
  '^\\p{Letter}+$',
  '^\\p{Uppercase_Letter}$',
  '\\P{L}',
  '^[\\p{L}\\p{N}]+$',
  '^\\p{Nd}+$',
  '^\\p{Script=Greek}$',
  '^\\p{sc=Cyrillic}+$',
  '^\\p{gc=Ll}+$',
  '^\\p{Zs}$',
  '\\u00e9',
  '^\\u{1F600}$',
  '\\uD83D\\uDE00',
  '^[\\u0020-\\u007E]*$',
  '\\x41',
  '\\cJ',
  '\\0',
  '\\t',
  '\\n',
  '\\v',
  '\\f',
  '\\r',
  '\\.',
  '\\/',
  '[\\-]',
  '\\$',
  '^\\{\\}$',
  '^(?:ab|cd)+$',
  '^(?<word>\\w+)$',
  '^a{2,3}$',
  '^.{1,3}$',
  '^(a+)+$',
  '^(\\w+\\s?)*$',
  '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^v?\\d+(\\.\\d+)*$',
  '^-?\\d+(\\.\\d+)?$',
  'a*?b',
  '😀',
  '^[😀-😂]$',
  '[]',
  '[^]',
  '^[^]$',
];

describe('linear patterns', () => {
  it.each(PATTERNS)('%s gives the verdict of ECMA-262 with the u flag', (pattern) => {
    const native = new RegExp(pattern, 'u');
    const linear = linearRegExp(pattern);
    expect(linear, `${pattern} should run in the linear engine`).toBeDefined();
    for (const input of INPUTS) {
      expect([input, linear?.test(input)]).toEqual([input, native.test(input)]);
    }
  });

  it.each([
    ['lookahead', '^(?=.*\\d).{8,}$'],
    ['negative lookahead', '^(?!\\s)'],
    ['lookbehind', '(?<=a)b'],
    ['negative lookbehind', '(?<!a)b'],
    ['backreference', '^(a)\\1$'],
    ['named backreference', '^(?<x>a)\\k<x>$'],
    ['repeat count over 1000', '^a{1,5000}$'],
    ['binary property', '^\\p{Emoji}$'],
    ['script extensions', '^\\p{scx=Greek}$'],
  ])('a %s cannot run in linear time: undefined', (_kind, pattern) => {
    expect(linearRegExp(pattern)).toBeUndefined();
  });

  it('never leaves a character that RE2 reads differently from ECMA-262', () => {
    // `[[:alpha:]]` is a POSIX class in RE2, a class of `[`, `:`... then `]` in ECMA-262
    expect(toRe2Syntax('[[:alpha:]\\]')).not.toContain('[:');
    expect(linearRegExp('^[[:alpha:]\\]$')?.test('a')).toBe(false);
    expect(linearRegExp('^[[:alpha:]\\]$')?.test(':]')).toBe(true);
  });
});
