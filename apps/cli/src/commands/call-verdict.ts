import { createToolContext, type RegisteredTool, type ToolView } from '@toolplane/core';
import type { Policy } from '@toolplane/policy';

/** What a call of a tool would get from the policy, before any argument is seen. */
export interface CallVerdict {
  /** `allow`, `ask` or `deny`; `depends` for a shell-like tool, whose command rules decide per call. */
  readonly decision: 'allow' | 'ask' | 'deny' | 'depends';
  readonly reason: string;
  /** Which part of the policy decided (`read-only`, `auto-allow`, `always-ask`, `risk`, `mode`...). */
  readonly source?: string;
}

/**
 * Asks the policy about a call of `tool` by `view`, with no arguments: the answer a call gets
 * (a shell tool's answer depends on its command line, so that is what it says).
 */
export async function callVerdict(
  policy: Policy,
  tool: RegisteredTool,
  view: ToolView,
): Promise<CallVerdict> {
  const decision = await policy.check({
    tool,
    args: {},
    ctx: createToolContext({ principal: view.principal, session: view.session }),
  });
  if (tool.spec.commandArgument === undefined || decision.source === 'tool-list')
    return { decision: decision.decision, reason: decision.reason, source: decision.source };
  // a shell tool asked about without a command: what decides is the tool list (above), plan
  // mode (which runs no command), else the command rules per call
  if (decision.mode === 'plan')
    return {
      decision: 'deny',
      reason: `the session is in plan mode (read-only): ${tool.name} runs no command; leave plan mode to run commands`,
      source: 'mode',
    };
  return {
    decision: 'depends',
    reason: `the command rules decide each call by its ${tool.spec.commandArgument} (policy.commands allow/ask/deny)`,
    source: 'command',
  };
}
