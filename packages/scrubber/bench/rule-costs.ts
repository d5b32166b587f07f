// Per-rule cost on the benchmark corpus, and the check that no rule reads a text on its own:
// rules run only at the candidates the one shared pass finds, so on a large text with none a
// rule's hooks must not be called, and what a stream asks of it (`openFrom`, `carry`) must not
// grow with the text.
import { compileRules } from '../src/compiled-rules.js';
import { buildAnchorAutomaton } from '../src/scan/anchor-automaton.js';
import { createCandidateLists, findCandidates } from '../src/scan/candidate-pass.js';
import { forgetMemos } from '../src/rules/memos.js';
import type { SecretRule } from '../src/types.js';

export interface RuleCost {
  readonly id: string;
  readonly candidates: number;
  readonly milliseconds: number;
}

/** Each rule's candidates and the time its work at them took over `segments` (one scan each). */
export function ruleCosts(
  rules: readonly SecretRule[],
  segments: readonly string[],
): { costs: RuleCost[]; passMs: number; totalMs: number } {
  const totals = new Map<string, { candidates: number; milliseconds: number }>();
  const compiled = compileRules(rules, (id, candidates, milliseconds) => {
    const total = totals.get(id) ?? { candidates: 0, milliseconds: 0 };
    total.candidates += candidates;
    total.milliseconds += milliseconds;
    totals.set(id, total);
  });
  for (const segment of segments.slice(0, 4)) compiled.scan(segment, []); // warm-up
  forgetMemos();
  totals.clear();
  const began = performance.now();
  for (const segment of segments) {
    compiled.scan(segment, []);
    forgetMemos();
  }
  const totalMs = performance.now() - began;
  const automaton = buildAnchorAutomaton(rules);
  const lists = createCandidateLists(rules.length);
  const passBegan = performance.now();
  for (const segment of segments) findCandidates(segment, automaton, lists);
  const passMs = performance.now() - passBegan;
  const costs = rules.map((rule) => ({
    id: rule.id,
    candidates: totals.get(rule.id)?.candidates ?? 0,
    milliseconds: totals.get(rule.id)?.milliseconds ?? 0,
  }));
  return { costs: costs.sort((a, b) => b.milliseconds - a.milliseconds), passMs, totalMs };
}

/**
 * `filler` with every anchor of every rule blanked out (repeated until the pass finds none), so
 * nothing in it is a candidate for any rule.
 */
export function withoutCandidates(rules: readonly SecretRule[], filler: string): string {
  const automaton = buildAnchorAutomaton(rules);
  const lists = createCandidateLists(rules.length);
  const codes = Uint16Array.from(filler, (character) => character.charCodeAt(0));
  let text = filler;
  for (let round = 0; round < 8; round++) {
    findCandidates(text, automaton, lists);
    let found = 0;
    rules.forEach((rule, ruleIndex) => {
      const starts = (lists.starts[ruleIndex] as Int32Array).subarray(0, lists.counts[ruleIndex]);
      const longest = Math.max(...rule.anchors.map((anchor) => anchor.length));
      for (const start of starts) {
        found++;
        for (let i = start; i < start + longest && i < codes.length; i++) codes[i] = 32;
      }
    });
    if (found === 0) return text;
    text = new TextDecoder('utf-16le').decode(codes);
  }
  throw new Error('could not blank every anchor out of the filler');
}

export interface WholeTextReport {
  readonly id: string;
  /** Calls of the rule's matcher, pattern and validator while a scrubber read the large text. */
  readonly calls: number;
  /** Milliseconds its `openFrom` and `carry` took on the small and on the large text. */
  readonly hooksMsSmall: number;
  readonly hooksMsLarge: number;
}

/** A copy of `rule` whose matcher, pattern and validator count their calls. */
function watched(rule: SecretRule, counter: { calls: number }): SecretRule {
  const count =
    <Args extends unknown[], Result>(fn: (...args: Args) => Result) =>
    (...args: Args): Result => {
      counter.calls++;
      return fn(...args);
    };
  return {
    ...rule,
    ...(rule.match && { match: count(rule.match) }),
    ...(rule.validate && { validate: count(rule.validate) }),
    // A pattern rule's regex runs only where the engine puts it; as a counted match here.
    ...(rule.pattern && { pattern: undefined, match: count(patternMatch(rule.pattern)) }),
  };
}

function patternMatch(pattern: RegExp): NonNullable<SecretRule['match']> {
  const sticky = new RegExp(pattern.source, `${pattern.flags.replace(/[gyd]/g, '')}yd`);
  return (text, at) => {
    sticky.lastIndex = at;
    const match = sticky.exec(text);
    if (match === null) return undefined;
    const group = match.indices?.[1];
    return group ? { start: group[0], end: group[1] } : { start: at, end: at + match[0].length };
  };
}

/**
 * Milliseconds of `runs` calls of a rule's stream hooks on `text` (a cut in its middle), called as
 * a stream calls them: `carry` with the rule's anchors in `text` (none: it has no candidates).
 */
function hooksMs(rule: SecretRule, text: string, runs: number): number {
  if (!rule.openFrom && !rule.carry) return 0;
  const none = new Int32Array(0);
  const began = performance.now();
  for (let run = 0; run < runs; run++) {
    rule.openFrom?.(text);
    rule.carry?.(text, text.length >> 1, 1024, none);
  }
  forgetMemos();
  return performance.now() - began;
}

/**
 * For each rule: how often it was called while a scrubber with all `rules` scrubbed `large` (a
 * text with no candidate: it must be never), and how long its stream hooks take on `small` and on
 * `large` (they must not grow with the text).
 */
export function wholeTextReports(
  rules: readonly SecretRule[],
  scrub: (rules: readonly SecretRule[], text: string) => void,
  small: string,
  large: string,
): WholeTextReport[] {
  const counters = rules.map(() => ({ calls: 0 }));
  scrub(
    rules.map((rule, index) => watched(rule, counters[index] as { calls: number })),
    large,
  );
  return rules.map((rule, index) => {
    // Warm-up on both texts in turn, until the hooks' code is compiled for both: warmed on the
    // small one only, the first 50 calls on the large one took 11 ms where the next 50 took
    // 0.5 ms, and the check failed at random.
    for (let round = 0; round < 4; round++) {
      hooksMs(rule, small, 10);
      hooksMs(rule, large, 10);
    }
    return {
      id: rule.id,
      calls: (counters[index] as { calls: number }).calls,
      hooksMsSmall: hooksMs(rule, small, 50),
      hooksMsLarge: hooksMs(rule, large, 50),
    };
  });
}
