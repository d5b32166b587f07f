import { RE2JS } from 're2js';

/**
 * ECMA-262 regular expressions (the dialect of JSON Schema's `pattern`, with ajv's `u` flag)
 * run by RE2JS, a linear-time engine: a schema pattern such as `^(a+)+$` cannot freeze the
 * process on a crafted string. Written here because RE2JS's own `translateRegExp` changes what
 * some patterns mean (`\k<name>` becomes the text `k<name>`, `.` and `\s` keep RE2's narrower
 * meaning). Anything this translation does not know, and what RE2 cannot run (lookaround,
 * backreferences, repeat counts over 1000, binary Unicode properties), answers `undefined`.
 */

/** White space as ECMA-262 `\s` means it (WhiteSpace and LineTerminator), as code point ranges. */
const SPACE_RANGES: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;

function hex(codePoint: number): string {
  return `\\x{${codePoint.toString(16)}}`;
}

function rangesText(ranges: readonly (readonly [number, number])[]): string {
  return ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');
}

function complement(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const SPACE = rangesText(SPACE_RANGES);
const NOT_SPACE = rangesText(complement(SPACE_RANGES));
/** `.` without the `s` flag: anything but a line terminator. */
const DOT = `[^${hex(0x0a)}${hex(0x0d)}${hex(0x2028)}${hex(0x2029)}]`;

/** General categories, long names to the short ones RE2 knows (ECMA-262 accepts both). */
const CATEGORIES: Readonly<Record<string, string>> = {
  Letter: 'L',
  Cased_Letter: 'LC',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Other: 'C',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Surrogate: 'Cs',
  Private_Use: 'Co',
  Unassigned: 'Cn',
};
const SHORT_CATEGORIES = new Set(Object.values(CATEGORIES));

/** `\p{...}` as RE2 writes it, or undefined when RE2 has no same-meaning property. */
function property(body: string, negated: boolean): string | undefined {
  const equals = body.indexOf('=');
  let name: string | undefined;
  if (equals === -1) name = CATEGORIES[body] ?? (SHORT_CATEGORIES.has(body) ? body : undefined);
  else {
    const key = body.slice(0, equals);
    const value = body.slice(equals + 1);
    if (key === 'General_Category' || key === 'gc')
      name = CATEGORIES[value] ?? (SHORT_CATEGORIES.has(value) ? value : undefined);
    else if (key === 'Script' || key === 'sc') name = /^[A-Z][A-Za-z_]*$/.test(value) ? value : undefined;
  }
  // `LC` and `Cn` are not RE2 names; everything else is checked when RE2 compiles the result
  if (name === undefined || name === 'LC' || name === 'Cn') return undefined;
  return `\\${negated ? 'P' : 'p'}{${name}}`;
}

/** Thrown inside the translation for what it cannot say in RE2 terms. */
class Untranslatable extends Error {}

function untranslatable(): never {
  throw new Untranslatable();
}

/**
 * Translates a pattern that `new RegExp(pattern, 'u')` accepts into RE2 syntax with the same
 * verdict for `test()`, or answers undefined.
 */
export function toRe2Syntax(pattern: string): string | undefined {
  try {
    return translate(pattern);
  } catch (error) {
    if (error instanceof Untranslatable) return undefined;
    throw error;
  }
}

function translate(pattern: string): string {
  const chars = Array.from(pattern); // code points: the `u` flag reads the pattern that way
  let out = '';
  let at = 0;
  let inClass = false;
  let classStart = false; // just after `[` or `[^`
  const take = (): string => chars[at++] ?? untranslatable();
  while (at < chars.length) {
    const char = take();
    if (inClass) {
      if (char === ']') {
        if (classStart)
          out = out.endsWith('[^')
            ? `${out.slice(0, -2)}[${hex(0)}-${hex(MAX_CODE_POINT)}]`
            : `${out.slice(0, -1)}[^${hex(0)}-${hex(MAX_CODE_POINT)}]`;
        else out += ']';
        inClass = false;
        continue;
      }
      classStart = false;
      if (char === '-') out += '-';
      else if (char === '\\') out += escaped(true);
      else out += hex(char.codePointAt(0) as number);
      continue;
    }
    switch (char) {
      case '\\':
        out += escaped(false);
        break;
      case '[':
        inClass = true;
        classStart = true;
        if (chars[at] === '^') {
          at++;
          out += '[^';
        } else out += '[';
        break;
      case '.':
        out += DOT;
        break;
      case '(':
        out += group();
        break;
      case '^':
      case '$':
      case '|':
      case ')':
      case '*':
      case '+':
      case '?':
      case '{':
      case '}':
        // quantifier braces: the pattern compiled with `u`, so `{` here is always a quantifier
        out += char;
        break;
      default:
        out += /^[A-Za-z0-9,]$/.test(char) ? char : hex(char.codePointAt(0) as number);
    }
  }
  if (inClass) untranslatable();
  return out;

  function group(): string {
    if (chars[at] !== '?') return '(';
    const next = chars[at + 1];
    if (next === ':') {
      at += 2;
      return '(?:';
    }
    if (next === '<' && chars[at + 2] !== '=' && chars[at + 2] !== '!') {
      // a named group: the name does not change what test() answers
      const close = chars.indexOf('>', at);
      if (close === -1) untranslatable();
      at = close + 1;
      return '(?:';
    }
    return untranslatable(); // lookahead, lookbehind
  }

  function escaped(inside: boolean): string {
    const char = take();
    switch (char) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        return `\\${char}`;
      case 'b':
        return inside ? hex(0x08) : '\\b';
      case 'B':
        return inside ? untranslatable() : '\\B';
      case 's':
        return inside ? SPACE : `[${SPACE}]`;
      case 'S':
        return inside ? NOT_SPACE : `[${NOT_SPACE}]`;
      case 't':
        return hex(0x09);
      case 'n':
        return hex(0x0a);
      case 'v':
        return hex(0x0b);
      case 'f':
        return hex(0x0c);
      case 'r':
        return hex(0x0d);
      case '0':
        return hex(0);
      case 'c':
        return hex((take().codePointAt(0) as number) % 32);
      case 'x':
        return hex(Number.parseInt(take() + take(), 16));
      case 'u':
        return hex(unicodeEscape());
      case 'p':
      case 'P': {
        if (take() !== '{') untranslatable();
        const close = chars.indexOf('}', at);
        if (close === -1) untranslatable();
        const body = chars.slice(at, close).join('');
        at = close + 1;
        return property(body, char === 'P') ?? untranslatable();
      }
      default:
        // a backreference (`\1`, `\k<name>`) cannot run in linear time; the rest are the escaped
        // syntax characters (`\.`, `\/`, `\-`...), meaning themselves
        if (/^[A-Za-z0-9]$/.test(char)) untranslatable();
        return hex(char.codePointAt(0) as number);
    }
  }

  /** `\uXXXX`, `\u{X...}`, or a surrogate pair written as two `\uXXXX` (one code point with `u`). */
  function unicodeEscape(): number {
    if (chars[at] === '{') {
      const close = chars.indexOf('}', at);
      if (close === -1) untranslatable();
      const value = Number.parseInt(chars.slice(at + 1, close).join(''), 16);
      at = close + 1;
      return value;
    }
    const high = Number.parseInt(take() + take() + take() + take(), 16);
    if (high >= 0xd800 && high <= 0xdbff && chars[at] === '\\' && chars[at + 1] === 'u') {
      const low = Number.parseInt(chars.slice(at + 2, at + 6).join(''), 16);
      if (low >= 0xdc00 && low <= 0xdfff) {
        at += 6;
        return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
      }
    }
    return high;
  }
}

/** A pattern RE2JS runs in linear time, or undefined when it cannot run this one. */
export function linearRegExp(pattern: string): { test(text: string): boolean } | undefined {
  const syntax = toRe2Syntax(pattern);
  if (syntax === undefined) return undefined;
  try {
    return RE2JS.compile(syntax);
  } catch {
    return undefined;
  }
}
