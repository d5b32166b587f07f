import { ToolError } from '@toolplane/core';
import { type AnchorEntry, type ProbeGroup, anchorAt, buildProbeGroups } from './anchor-index.js';
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
  /** Scans `text` and appends a finding (with the rule's priority) for every match. */
  scan(text: string, out: Finding[]): void;
}

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

/**
 * Compiles rules into one scanner: a native `indexOf` pass per probe character, and at each
 * probe hit only the rules whose anchor is there.
 */
export function compileRules(rules: readonly SecretRule[]): CompiledRules {
  const runnables = rules.map(prepare);
  const groups: readonly ProbeGroup[] = buildProbeGroups(rules);
  const maxShortLength = Math.max(0, ...rules.map((rule) => (rule.maxLength <= 4096 ? rule.maxLength : 0)));
  const tryRule = (ruleIndex: number, text: string, start: number, out: Finding[]): void => {
    const runnable = runnables[ruleIndex] as RunnableRule;
    const match = runnable.pattern ? runPattern(runnable, text, start) : runnable.rule.match?.(text, start);
    if (match === undefined) return;
    if (Array.isArray(match)) for (const one of match as readonly RuleMatch[]) keep(runnable, text, one, out);
    else keep(runnable, text, match as RuleMatch, out);
  };
  const tryEntries = (
    entries: readonly AnchorEntry[] | undefined,
    text: string,
    hit: number,
    out: Finding[],
  ): void => {
    if (entries === undefined) return;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as AnchorEntry;
      const start = hit - entry.offset;
      if (anchorAt(text, start, entry)) tryRule(entry.ruleIndex, text, start, out);
    }
  };
  const holders = rules.filter((rule) => typeof rule.openFrom === 'function');
  const carriers = rules.filter((rule) => typeof rule.carry === 'function');
  return {
    rules,
    maxShortLength,
    carriers: new Set(carriers.map((rule) => rule.id)),
    carry(text, at, maxBack) {
      for (const rule of carriers) {
        const carry = (rule.carry as NonNullable<SecretRule['carry']>)(text, at, maxBack);
        if (carry !== undefined) return carry;
      }
      return undefined;
    },
    openFrom(text) {
      let from = text.length;
      for (const rule of holders) from = Math.min(from, (rule.openFrom as (text: string) => number)(text));
      return from;
    },
    scan(text, out) {
      for (const group of groups) {
        const { probe, byCodeBefore, byCodeAfter } = group;
        const always = (byCodeBefore[0] ?? []).concat(byCodeAfter[0] ?? []);
        let hit = text.indexOf(probe);
        while (hit !== -1) {
          const before = hit > 0 ? text.charCodeAt(hit - 1) : 0;
          const after = hit + 1 < text.length ? text.charCodeAt(hit + 1) : 0;
          if (before > 0 && before < 128) tryEntries(byCodeBefore[before], text, hit, out);
          if (after > 0 && after < 128) tryEntries(byCodeAfter[after], text, hit, out);
          if (always.length > 0) tryEntries(always, text, hit, out);
          hit = text.indexOf(probe, hit + 1);
        }
      }
    },
  };
}
