import type { ToolCall } from '@toolplane/core';
import type { AllowList } from './allow-list.js';
import { type CompiledCommandRules, checkCommandLine } from './command-check.js';
import { MAX_COMMAND_LENGTH } from './decision-context.js';
import type { PolicyDecision } from './decision.js';
import { loadAnalysis, loadShellParser, loadedAnalysis, loadedShellParser } from './shell/index.js';

/** A relative path that stays in the working directory (accept-edits lets these be written). */
function isWorkspacePath(path: string): boolean {
  return !/^[/~\\]|^[A-Za-z]:|^<computed>$/.test(path) && !path.split(/[/\\]/).includes('..');
}

/** What a command decision needs from its policy. */
export interface CommandRulesContext {
  readonly rules: CompiledCommandRules;
  readonly allowList: AllowList;
}

/**
 * Decides the call of a shell-like tool by its command line: parsed, judged by the default
 * deny rules and the config's and allow-list's patterns, then by the session's mode.
 */
export async function decideCommand(
  call: ToolCall,
  base: PolicyDecision,
  context: CommandRulesContext,
): Promise<PolicyDecision> {
  const argument = call.tool.spec.commandArgument as string;
  const command = call.args[argument];
  if (typeof command !== 'string') {
    return {
      ...base,
      decision: 'deny',
      code: 'INVALID_ARGUMENTS',
      reasonCode: 'invalid-command',
      source: 'arguments',
      reason: `argument "${argument}" of ${call.tool.name} must be a command line string`,
    };
  }
  if (command.length > MAX_COMMAND_LENGTH) {
    return {
      ...base,
      command,
      decision: base.mode === 'plan' ? 'deny' : 'ask',
      ...(base.mode === 'plan' ? { code: 'DENIED' as const } : {}),
      reasonCode: 'command-too-long',
      source: 'command',
      reason: `the command line is ${command.length} characters long; over ${MAX_COMMAND_LENGTH} it is not analyzed`,
    };
  }
  const parser = loadedShellParser() ?? (await loadShellParser());
  const { analyzeCommandLine } = loadedAnalysis() ?? (await loadAnalysis());
  const protectedPaths = context.rules.protectedPaths;
  const analysis = analyzeCommandLine(parser, command, protectedPaths ? { protectedPaths } : {});
  const result = checkCommandLine(analysis, context.rules, context.allowList.commandPatterns());
  const common = {
    ...base,
    command,
    commandCheck: result,
    suggestedRules: result.suggestedRules,
    reasonCode: result.reasonCode,
  };
  switch (result.verdict) {
    case 'deny':
      return { ...common, decision: 'deny', code: 'DENIED', source: 'command', reason: result.reason };
    case 'ask':
      if (base.mode === 'plan') break;
      return { ...common, decision: 'ask', source: 'command', reason: result.reason };
    case 'allow':
      if (base.mode === 'plan') break;
      return { ...common, decision: 'allow', source: 'command', reason: result.reason };
    default:
      if (base.mode === 'bypass')
        return {
          ...common,
          decision: 'allow',
          source: 'mode',
          reasonCode: 'bypass-mode',
          reason: `bypass mode: ${result.reason}`,
        };
      if (
        base.mode === 'accept-edits' &&
        result.unmatched.length === 0 &&
        result.writes.every(isWorkspacePath)
      )
        return {
          ...common,
          decision: 'allow',
          source: 'mode',
          reasonCode: 'accept-edits-mode',
          reason: `accept-edits mode allows file writes: ${result.reason}`,
        };
      if (base.mode !== 'plan')
        return { ...common, decision: 'ask', source: 'command', reason: result.reason };
  }
  return {
    ...common,
    decision: 'deny',
    code: 'DENIED',
    source: 'mode',
    reasonCode: 'plan-mode',
    reason: 'the session is in plan mode (read-only): shell commands do not run; leave plan mode to run them',
  };
}
