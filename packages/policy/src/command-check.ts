import type { CommandPattern } from './command-pattern.js';
import { patternsFor } from './pattern-index.js';
import type { CommandLineAnalysis, FindingCategory, ProtectedPaths, SimpleCommand } from './shell/index.js';

/**
 * What the command rules say about a command line: `allow` (every command matched an allow
 * rule), `deny`, `ask` (an ask rule matched, or something was not fully understood), or
 * `unmatched` (no rule decided some command; the permission mode decides).
 */
export type CommandVerdict = 'allow' | 'ask' | 'deny' | 'unmatched';

/**
 * Why a command line got its verdict, as a stable code: a default rule's category
 * (`destructive-file-operation`...), `protected-path-write` (a shell write to a protected
 * path), `script-written-by-line` (a script the line wrote and runs, with text not known),
 * `not-understood`, `deny-rule` / `deny-rule-may-match` / `ask-rule` (the config's patterns),
 * `no-allow-rule`, `redirection-writes`, `allow-rule`.
 */
export type CommandReasonCode =
  | FindingCategory
  | 'deny-rule'
  | 'deny-rule-may-match'
  | 'ask-rule'
  | 'no-allow-rule'
  | 'redirection-writes'
  | 'allow-rule';

/** The verdict on one command line, with the reasons and what `allow-always` would add. */
export interface CommandCheck {
  readonly verdict: CommandVerdict;
  readonly reason: string;
  /** The reason as a stable code. */
  readonly reasonCode: CommandReasonCode;
  readonly analysis: CommandLineAnalysis;
  /** Commands no allow rule covered. */
  readonly unmatched: readonly SimpleCommand[];
  /** Files written by redirection and not covered by a rule. */
  readonly writes: readonly string[];
  /** Allow rules that would cover the unmatched commands (for `allow-always`). */
  readonly suggestedRules: readonly string[];
}

/** Compiled command rules. */
export interface CompiledCommandRules {
  readonly allow: readonly CommandPattern[];
  readonly ask: readonly CommandPattern[];
  readonly deny: readonly CommandPattern[];
  /** Default deny categories that are switched off. */
  readonly disabledDefaults: ReadonlySet<FindingCategory>;
  /** The paths no shell command writes without asking (default: `DEFAULT_PROTECTED_PATHS`). */
  readonly protectedPaths?: ProtectedPaths;
}

/** An allow rule that would cover this command next time: `git push *`, `ls *`. */
export function suggestRule(command: SimpleCommand): string {
  const first = command.args[0];
  const prefix = command.elevated ? `${command.written[0]?.text ?? ''} ` : '';
  const sub = first && !first.dynamic && /^[a-z][a-z0-9:_-]*$/.test(first.text) ? ` ${first.text}` : '';
  return `${prefix}${command.name}${sub} *`;
}

function describe(command: SimpleCommand): string {
  return command.text.length > 80 ? `${command.text.slice(0, 77)}...` : command.text;
}

/**
 * Judges an analyzed command line against allow / ask / deny rules. Every simple command is
 * judged on its own, so chaining, pipes and substitution cannot carry a denied command past an
 * allowed one; anything not fully understood is asked, never allowed automatically.
 */
export function checkCommandLine(
  analysis: CommandLineAnalysis,
  rules: CompiledCommandRules,
  extraAllow: readonly CommandPattern[] = [],
): CommandCheck {
  const base = {
    analysis,
    unmatched: [] as SimpleCommand[],
    writes: [] as string[],
    suggestedRules: [] as string[],
  };
  for (const finding of analysis.findings) {
    if (finding.kind === 'deny' && !rules.disabledDefaults.has(finding.category)) {
      return {
        ...base,
        verdict: 'deny',
        reason: `${finding.category}: ${finding.reason} (${finding.text.trim() || analysis.source})`,
        reasonCode: finding.category,
      };
    }
  }
  let askReason: string | undefined;
  let askCode = 'not-understood' as CommandReasonCode;
  const ask = (reason: string, code: CommandReasonCode): void => {
    if (askReason !== undefined) return;
    askReason = reason;
    askCode = code;
  };
  // Asked whatever rule allows it and in every mode: a protected path written, a script the
  // line wrote and runs with text it does not show.
  const asked = analysis.findings.find((finding) => finding.kind === 'ask');
  if (asked)
    ask(`${asked.category}: ${asked.reason} (${asked.text.trim() || analysis.source})`, asked.category);
  for (const command of analysis.commands) {
    for (const pattern of patternsFor(rules.deny, command)) {
      const match = pattern.matchDeny(command);
      if (match === 'yes')
        return {
          ...base,
          verdict: 'deny',
          reason: `deny rule "${pattern.source}" matches ${describe(command)}`,
          reasonCode: 'deny-rule',
        };
      if (match === 'maybe')
        ask(
          `deny rule "${pattern.source}" may match ${describe(command)} (arguments decided at run time)`,
          'deny-rule-may-match',
        );
    }
  }
  const unknown = analysis.findings.find((finding) => finding.kind === 'unknown');
  if (unknown)
    ask(
      `not fully understood: ${unknown.reason} (${unknown.text.trim() || analysis.source})`,
      'not-understood',
    );
  for (const command of analysis.commands) {
    const pattern = patternsFor(rules.ask, command).find(
      (candidate) => candidate.matchDeny(command) !== 'no',
    );
    if (pattern) ask(`ask rule "${pattern.source}" matches ${describe(command)}`, 'ask-rule');
  }
  const unmatched: SimpleCommand[] = [];
  const allowedBy = (patterns: readonly CommandPattern[], command: SimpleCommand): boolean =>
    patternsFor(patterns, command).some((pattern) => pattern.matchAllow(command));
  for (const command of analysis.commands) {
    if (!allowedBy(rules.allow, command) && !allowedBy(extraAllow, command)) unmatched.push(command);
  }
  const suggestedRules = [...new Set(unmatched.filter((command) => command.name !== '').map(suggestRule))];
  const writes = [...analysis.writes];
  const rest = { analysis, unmatched, writes, suggestedRules };
  // No rule lifts these questions, so `allow-always` adds none.
  if (askCode === 'protected-path-write' || askCode === 'script-written-by-line')
    return { ...rest, suggestedRules: [], verdict: 'ask', reason: askReason ?? '', reasonCode: askCode };
  if (askReason !== undefined) return { ...rest, verdict: 'ask', reason: askReason, reasonCode: askCode };
  if (unmatched.length > 0) {
    const names = unmatched.map(describe).join('; ');
    return {
      ...rest,
      verdict: 'unmatched',
      reason: `no allow rule covers: ${names}`,
      reasonCode: 'no-allow-rule',
    };
  }
  if (writes.length > 0)
    return {
      ...rest,
      verdict: 'unmatched',
      reason: `writes files by redirection: ${writes.join(', ')}`,
      reasonCode: 'redirection-writes',
    };
  return {
    ...rest,
    verdict: 'allow',
    reason: 'every command matches an allow rule',
    reasonCode: 'allow-rule',
  };
}
