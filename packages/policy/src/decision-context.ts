import type { PermissionMode, RiskLevel } from '@toolplane/core';
import type { PolicyDecision } from './decision.js';
import type { PinState } from './pin-store.js';

export const NO_RULES: readonly string[] = [];
/** Longer command lines are asked without parsing (a bound on the work one call can cause). */
export const MAX_COMMAND_LENGTH = 65_536;

/** What every decision of one call shares. */
export interface DecisionContext {
  readonly mode: PermissionMode;
  readonly risk: RiskLevel;
  readonly shadow: boolean;
  pin: PinState | undefined;
}

/** A decision with what every decision of the call shares. */
export function makeDecision(
  context: DecisionContext,
  decision: PolicyDecision['decision'],
  source: PolicyDecision['source'],
  reason: string,
  suggestedRules: readonly string[] = NO_RULES,
): PolicyDecision {
  const made: { -readonly [K in keyof PolicyDecision]: PolicyDecision[K] } = {
    decision,
    source,
    reason,
    mode: context.mode,
    risk: context.risk,
    suggestedRules,
    shadow: context.shadow,
  };
  if (decision === 'deny') made.code = 'DENIED';
  if (context.pin && context.pin.status !== 'not-pinnable') made.pin = context.pin;
  return made;
}
