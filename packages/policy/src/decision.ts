import type { PermissionMode, RiskLevel } from '@toolplane/core';
import type { CommandCheck, CommandReasonCode } from './command-check.js';
import type { PinState } from './pin-store.js';

/** Which part of the policy decided. */
export type DecisionSource =
  | 'tool-list'
  | 'arguments'
  | 'mode'
  | 'read-only'
  | 'auto-allow'
  | 'always-ask'
  | 'allow-list'
  | 'risk'
  | 'command'
  | 'pin';

/** The policy's answer for one call. */
export interface PolicyDecision {
  /** `allow` runs, `deny` refuses, `ask` needs a person (an approval channel). */
  readonly decision: 'allow' | 'ask' | 'deny';
  /** Error code for a refusal: `DENIED`, or `INVALID_ARGUMENTS` for a command that is not a string. */
  readonly code?: 'DENIED' | 'INVALID_ARGUMENTS';
  /** One sentence: why. */
  readonly reason: string;
  /**
   * For a shell-like tool, why as a stable code: the command check's code
   * (`protected-path-write`, `script-written-by-line`, `destructive-file-operation`,
   * `no-allow-rule`...), or `plan-mode`, `bypass-mode`, `accept-edits-mode` when the mode
   * decided, `command-too-long`, `invalid-command`.
   */
  readonly reasonCode?:
    | CommandReasonCode
    | 'plan-mode'
    | 'bypass-mode'
    | 'accept-edits-mode'
    | 'command-too-long'
    | 'invalid-command';
  readonly source: DecisionSource;
  readonly mode: PermissionMode;
  readonly risk: RiskLevel;
  /** The command line and its analysis, for shell-like tools. */
  readonly command?: string;
  readonly commandCheck?: CommandCheck;
  /** What `allow-always` adds: command patterns for shell tools, `tool:<name>` otherwise. */
  readonly suggestedRules: readonly string[];
  /** Definition pin state for MCP/REST tools. */
  readonly pin?: PinState;
  /** The policy is in shadow (report-only) mode: the caller reports and runs instead of refusing. */
  readonly shadow: boolean;
}
