import { ToolError } from '@toolplane/core';
import { buildAnchorAutomaton } from './scan/anchor-automaton.js';
import {
  createCandidateLists,
  findCandidates,
  lineBreaks,
  orderedStarts,
  wideTriggers,
} from './scan/candidate-pass.js';
import { withoutTrailingDecoration } from './trailing-decoration.js';
import type { Carry, Finding, RuleMatch, SecretRule } from './types.js';

/** A rule ready to run: its regex made sticky (and with group indices when it has a group). */
interface RunnableRule {
  readonly rule: SecretRule;
  readonly pattern: RegExp | undefined;
  readonly hasGroup: boolean;
}

/** The rules of a scrubber compiled for scanning. */
export interface CompiledRules {
  readonly rules: readonly SecretRule[];
  /** Longest span any rule may need from its anchor, for the stream hold-back. */
  readonly maxShortLength: number;
  /** Where a structure some rule needs whole is still open at the end of `text` (else its length). */
  openFrom(text: string): number;
  /** Ids of the rules that can carry a structure across a stream's cut (see {@link SecretRule.carry}). */
  readonly carriers: ReadonlySet<string>;
  /** The carry of the first rule that has one for a cut at `at`, else `undefined`. */
  carry(text: string, at: number, maxBack: number): Carry | undefined;
  /**
   * Scans `text` and appends a finding (with the rule's priority) for every match. With `remember`,
   * the anchors the carrying and holding rules have in `text` are kept for {@link carry} and {@link openFrom} on the same text,
   * until {@link forget}.
   */
  scan(text: string, out: Finding[], remember?: boolean): void;
  /**
   * Where the characters that call for a decoded reading are in `text` (see `scan/wide-triggers.ts`),
   * ascending, when the last scan with `remember` read that text; else `undefined`.
   */
  wideTriggers(text: string): Int32Array | undefined;
  /** Where the line breaks are in `text`, ascending, when the last scan with `remember` read that text; else `undefined`. */
  lineBreaks(text: string): Int32Array | undefined;
  /** Drops what {@link scan} kept. */
  forget(): void;
}

/** Told, per scan and rule with candidates, how many it had and the milliseconds its work there took. */
export type RuleObserver = (ruleId: string, candidates: number, milliseconds: number) => void;

function prepare(rule: SecretRule): RunnableRule {
  if (typeof rule !== 'object' || rule === null)
    throw new ToolError(
      'CONFIG_INVALID',
      `rules must be rule objects, got ${rule === null ? 'null' : typeof rule}`,
    );
  if (typeof rule.id !== 'string' || !/^[a-z0-9_]+$/.test(rule.id))
    throw new ToolError(
      'CONFIG_INVALID',
      `rule id ${JSON.stringify(rule.id)} must be snake_case (a-z, 0-9, _)`,
    );
  if (!Array.isArray(rule.anchors) || rule.anchors.length === 0 || rule.anchors.some((a) => !a))
    throw new ToolError('CONFIG_INVALID', `rule ${rule.id} needs at least one non-empty anchor`);
  if (!Number.isInteger(rule.maxLength) || rule.maxLength < 1)
    throw new ToolError(
      'CONFIG_INVALID',
      `rule ${rule.id} needs maxLength, a positive integer: the longest match from its anchor`,
    );
  if (!rule.pattern && !rule.match)
    throw new ToolError('CONFIG_INVALID', `rule ${rule.id} needs a pattern or a match function`);
  if (!rule.pattern) return { rule, pattern: undefined, hasGroup: false };
  const flags = new Set(rule.pattern.flags.replace(/[gy]/g, ''));
  flags.add('y');
  const hasGroup = new RegExp(`${rule.pattern.source}|`).exec('')!.length > 1;
  if (hasGroup) flags.add('d');
  return { rule, pattern: new RegExp(rule.pattern.source, [...flags].join('')), hasGroup };
}

function runPattern(runnable: RunnableRule, text: string, start: number): RuleMatch | undefined {
  const pattern = runnable.pattern as RegExp;
  pattern.lastIndex = start;
  const match = pattern.exec(text);
  if (match === null) return undefined;
  if (runnable.hasGroup) {
    const span = match.indices?.[1];
    return span === undefined ? undefined : { start: span[0], end: span[1] };
  }
  return { start, end: start + match[0].length };
}

/** Records one match of a rule (unless empty or refused by the rule's `validate`). */
function keep(runnable: RunnableRule, text: string, match: RuleMatch, out: Finding[]): void {
  if (match.end <= match.start) return;
  const validate = runnable.rule.validate;
  const end = withoutTrailingDecoration(text, match.start, match.end);
  if (validate && !validate(text.slice(match.start, end))) return;
  out.push({ kind: match.kind ?? runnable.rule.id, ruleId: runnable.rule.id, start: match.start, end });
}

/** Records each match a rule returned (one or several). */
function keepAll(
  runnable: RunnableRule,
  text: string,
  match: RuleMatch | readonly RuleMatch[],
  out: Finding[],
): void {
  if (Array.isArray(match)) for (const one of match as readonly RuleMatch[]) keep(runnable, text, one, out);
  else keep(runnable, text, match as RuleMatch, out);
}

/**
 * Compiles rules into one scanner: one pass over the text finds the anchors of every rule (see
 * {@link findCandidates}), then each rule runs at its own candidates only, in increasing order.
 * With `observe`, each rule's work is timed (for the benchmark's cost table).
 */
export function compileRules(rules: readonly SecretRule[], observe?: RuleObserver): CompiledRules {
  const runnables = rules.map(prepare);
  const automaton = buildAnchorAutomaton(rules);
  const lists = createCandidateLists(rules.length);
  const maxShortLength = Math.max(0, ...rules.map((rule) => (rule.maxLength <= 4096 ? rule.maxLength : 0)));
  const tryRule = (ruleIndex: number, text: string, start: number, out: Finding[]): void => {
    const runnable = runnables[ruleIndex] as RunnableRule;
    const match = runnable.pattern ? runPattern(runnable, text, start) : runnable.rule.match?.(text, start);
    if (match !== undefined) keepAll(runnable, text, match, out);
  };
  const carrierIndices = rules.flatMap((rule, index) => (typeof rule.carry === 'function' ? [index] : []));
  const holderIndices = rules.flatMap((rule, index) => (typeof rule.openFrom === 'function' ? [index] : []));
  /** The rules whose stream hooks are given their anchors: the carriers and the holders. */
  const hookIndices = [...new Set([...carrierIndices, ...holderIndices])];
  /** The text the last scan with `remember` read, and the anchors each hook rule (by rule index) had in it. */
  let keptText: string | undefined;
  const keptAnchors: (Int32Array | undefined)[] = rules.map(() => undefined);
  let keptWide: Int32Array | undefined;
  let keptLines: Int32Array | undefined;
  const isKept = (text: string): boolean =>
    keptText !== undefined && keptText.length === text.length && keptText === text;
  return {
    rules,
    maxShortLength,
    carriers: new Set(carrierIndices.map((index) => (rules[index] as SecretRule).id)),
    carry(text, at, maxBack) {
      const known = isKept(text);
      for (let c = 0; c < carrierIndices.length; c++) {
        const rule = rules[carrierIndices[c] as number] as SecretRule;
        const carry = (rule.carry as NonNullable<SecretRule['carry']>)(
          text,
          at,
          maxBack,
          known ? keptAnchors[carrierIndices[c] as number] : undefined,
        );
        if (carry !== undefined) return carry;
      }
      return undefined;
    },
    wideTriggers: (text) => (isKept(text) ? keptWide : undefined),
    lineBreaks: (text) => (isKept(text) ? keptLines : undefined),
    forget() {
      keptText = undefined;
      keptWide = undefined;
      keptLines = undefined;
      keptAnchors.fill(undefined);
    },
    openFrom(text) {
      const known = isKept(text);
      let from = text.length;
      for (const index of holderIndices) {
        const openFrom = (rules[index] as SecretRule).openFrom as NonNullable<SecretRule['openFrom']>;
        from = Math.min(from, openFrom(text, known ? keptAnchors[index] : undefined));
      }
      return from;
    },
    scan(text, out, remember = false) {
      findCandidates(text, automaton, lists);
      if (remember) {
        keptText = text;
        keptWide = wideTriggers(lists).slice();
        keptLines = lineBreaks(lists).slice();
        for (const index of hookIndices) keptAnchors[index] = orderedStarts(lists, index).slice();
      }
      for (let ruleIndex = 0; ruleIndex < runnables.length; ruleIndex++) {
        if (lists.counts[ruleIndex] === 0) continue;
        const starts = orderedStarts(lists, ruleIndex);
        const began = observe === undefined ? 0 : performance.now();
        const runnable = runnables[ruleIndex] as RunnableRule;
        const rule = runnable.rule;
        // A matcher rule is called straight from this loop, not through `tryRule` at each
        // candidate (`assignment` has one at every `:` and `=`).
        if (runnable.pattern === undefined && rule.match !== undefined)
          for (let i = 0; i < starts.length; i++) {
            const found = rule.match(text, starts[i] as number);
            if (found !== undefined) keepAll(runnable, text, found, out);
          }
        else for (let i = 0; i < starts.length; i++) tryRule(ruleIndex, text, starts[i] as number, out);
        if (observe !== undefined)
          observe(rules[ruleIndex]?.id as string, starts.length, performance.now() - began);
      }
    },
  };
}
