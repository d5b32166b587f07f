import type { ToolCall } from '@toolplane/core';
import type { Policy, PolicyDecision } from '@toolplane/policy';

/**
 * The questions a sandbox answers: a command line no allow rule covers, or one that writes files
 * by redirection. Everything else the policy asks stays a question: an `ask` rule, a deny rule
 * that may match, a construct it does not fully understand (it could hide a denied command), a
 * protected path written, a script the line writes and runs.
 */
const CONTAINED_REASONS: ReadonlySet<string> = new Set(['no-allow-rule', 'redirection-writes']);

/** True when the sandbox may answer this decision for the call: allow, it runs contained. */
export function sandboxMayAllow(call: ToolCall, decision: PolicyDecision): boolean {
  return (
    decision.decision === 'ask' &&
    decision.source === 'command' &&
    decision.reasonCode !== undefined &&
    CONTAINED_REASONS.has(decision.reasonCode) &&
    // only the built-in shell tools run in the sandbox; an MCP server's shell runs where it runs
    call.tool.provider.namespace === 'builtin'
  );
}

function contained(call: ToolCall, decision: PolicyDecision, kind: string): PolicyDecision {
  if (!sandboxMayAllow(call, decision)) return decision;
  return {
    ...decision,
    decision: 'allow',
    reason: `the ${kind} sandbox contains it (sandbox.autoAllow): ${decision.reason}`,
  };
}

/**
 * The policy with `sandbox.autoAllow`: a shell command of the built-in tools that the policy
 * would ask about only because no allow rule covers it runs without asking, since it runs in
 * the sandbox. Deny decisions, `ask` rules and the questions asked in every mode are unchanged.
 */
export function withSandboxAutoAllow(policy: Policy, kind: 'docker' | 'bwrap'): Policy {
  return {
    get config() {
      return policy.config;
    },
    get allowList() {
      return policy.allowList;
    },
    get pins() {
      return policy.pins;
    },
    filter: (tools, view) => policy.filter(tools, view),
    explain: (tool, view) => policy.explain(tool, view),
    async check(call) {
      return contained(call, await policy.check(call), kind);
    },
    decide(call) {
      const decision = policy.decide(call);
      return decision instanceof Promise
        ? decision.then((settled) => contained(call, settled, kind))
        : contained(call, decision, kind);
    },
    remember: (call, decision, answer) => policy.remember(call, decision, answer),
    setTools: (tools) => policy.setTools(tools),
    modeOf: (view) => policy.modeOf(view),
  };
}
