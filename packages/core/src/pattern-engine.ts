import { linearRegExp } from './linear-regexp.js';

/**
 * How much backtracking V8 may do for one `test()` before the linear engine takes the string
 * instead: paths through the pattern, about a millisecond of V8's time at worst.
 */
const BACKTRACK_BUDGET = 100_000;

/** A pattern's `test`, as ajv calls it for `pattern` and `patternProperties`. */
export interface PatternTest {
  test(text: string): boolean;
}

/**
 * How far V8's backtracking can branch on a pattern: the choices of each quantifier (a count,
 * `Infinity` when unbounded; an alternation is two; a group repeated at most `m` times counts its own quantifiers `m`
 * times), and whether it is tried at one place only (`^` first, no alternation
 * at the top). Undefined for a group repeated without bound, or more than 10 times (`(a+)+`,
 * `(a|b)*`, `(\w+\s?)*`): those branch exponentially in V8.
 */
interface Branching {
  readonly choices: readonly number[];
  readonly anchored: boolean;
}

function branchingOf(pattern: string): Branching | undefined {
  const chars = Array.from(pattern);
  const choices: number[] = [];
  let depth = 0;
  let topAlternation = false;
  let inClass = false;
  let afterGroup = false;
  let afterQuantifier = false;
  const groupStarts: number[] = []; // where each open group's quantifiers start in `choices`
  let lastGroup: number[] = []; // the quantifiers of the group that just closed
  for (let at = 0; at < chars.length; at++) {
    const char = chars[at] as string;
    if (char === '\\') {
      const next = chars[at + 1];
      const close =
        next === 'k'
          ? '>'
          : (next === 'u' || next === 'p' || next === 'P') && chars[at + 2] === '{'
            ? '}'
            : undefined;
      if (close) at = chars.indexOf(close, at);
      else at += next === 'x' ? 3 : next === 'u' ? 5 : next === 'c' ? 2 : 1;
      afterGroup = afterQuantifier = false;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    const quantifier = quantifierAt(chars, at);
    if (quantifier) {
      if (afterQuantifier && char === '?') {
        afterQuantifier = false; // lazy: the same choices
        continue;
      }
      if (afterGroup) {
        const repeats = quantifier.max;
        if (repeats > 10) return undefined;
        for (let copy = 1; copy < repeats; copy++) choices.push(...lastGroup);
      }
      choices.push(quantifier.choices);
      at = quantifier.end;
      afterQuantifier = true;
      continue;
    }
    afterGroup = afterQuantifier = false;
    if (char === '[') inClass = true;
    else if (char === '(') {
      depth++;
      groupStarts.push(choices.length);
      if (chars[at + 1] === '?') at = groupMarkerEnd(chars, at + 1); // `(?:`, `(?=`, `(?<name>`...
    } else if (char === ')') {
      depth--;
      lastGroup = choices.slice(groupStarts.pop() ?? 0);
      afterGroup = true;
    } else if (char === '|') {
      choices.push(2); // in a repeated group, each copy chooses again
      if (depth === 0) topAlternation = true;
    }
  }
  return { choices, anchored: chars[0] === '^' && !topAlternation };
}

/** The last character of a group's `?` marker starting at `at`: `?:`, `?=`, `?!`, `?<=`, `?<!`, `?<name>`. */
function groupMarkerEnd(chars: readonly string[], at: number): number {
  const kind = chars[at + 1];
  if (kind !== '<') return at + 1;
  const next = chars[at + 2];
  return next === '=' || next === '!' ? at + 2 : chars.indexOf('>', at);
}

function quantifierAt(
  chars: readonly string[],
  at: number,
): { choices: number; max: number; end: number } | undefined {
  const char = chars[at];
  if (char === '*' || char === '+')
    return { choices: Number.POSITIVE_INFINITY, max: Number.POSITIVE_INFINITY, end: at };
  if (char === '?') return { choices: 2, max: 1, end: at };
  if (char !== '{') return undefined;
  const close = chars.indexOf('}', at);
  const [min, max] = chars
    .slice(at + 1, close)
    .join('')
    .split(',');
  const low = Number(min);
  const high = max === undefined ? low : max === '' ? Number.POSITIVE_INFINITY : Number(max);
  return { choices: high - low + 1, max: high, end: close };
}

/** Whether V8's backtracking stays within the budget on a string of `length` characters. */
function withinBudget(branching: Branching, length: number): boolean {
  let paths = branching.anchored ? 1 : length + 1;
  for (const choices of branching.choices) {
    paths *= Math.min(choices, length + 1);
    if (paths > BACKTRACK_BUDGET) return false;
  }
  return paths <= BACKTRACK_BUDGET;
}

/**
 * A pattern's `test` that cannot keep the process busy: V8 runs it when its backtracking on
 * this string is bounded by the budget (the common case: short arguments, simple patterns; V8
 * is 10-30 times faster than RE2JS there), RE2JS (linear time, same verdict) otherwise. A
 * pattern RE2JS cannot run (lookaround, backreferences...) is `partial`: V8 runs it within the
 * budget, and a string beyond the budget, or any string for a quantified group, counts as
 * matching. Throws for a pattern that is not ECMA-262 (with the `u` flag).
 */
export function patternTest(pattern: string): PatternTest & { readonly partial: boolean } {
  const native = new RegExp(pattern, 'u');
  const branching = branchingOf(pattern);
  const linear = linearRegExp(pattern);
  if (linear) {
    if (!branching) return { partial: false, test: (text) => linear.test(text) };
    return {
      partial: false,
      test: (text) => (withinBudget(branching, text.length) ? native.test(text) : linear.test(text)),
    };
  }
  if (!branching) return { partial: true, test: () => true };
  return { partial: true, test: (text) => !withinBudget(branching, text.length) || native.test(text) };
}
