import {
  type ApprovalChannel,
  type ApprovalRequest,
  type Middleware,
  type ToolCall,
  type ToolResult,
  createId,
  errorMessage,
  fail,
} from '@toolplane/core';
import { DEFAULT_APPROVAL_TIMEOUT_MS, type ApprovalOutcome, runApproval } from './approvals/run-approval.js';
import { createSharedQuestions, untilSettledOrAborted } from './approvals/shared-questions.js';
import { loadShellParser } from './shell/index.js';
import type { PolicyDecision } from './decision.js';
import type { Policy } from './policy-types.js';

/** One decision of the gate, for logs and audits. */
export interface GateEvent {
  readonly tool: string;
  readonly callId: string;
  readonly decision: PolicyDecision;
  /** What happened: ran, refused, or (shadow mode) ran although the policy would not have. */
  readonly outcome: 'allowed' | 'approved' | 'denied' | 'approval-required' | 'shadow-allowed';
  readonly approval?: ApprovalOutcome['status'];
}

/** Options of {@link policyMiddleware}. */
export interface PolicyMiddlewareOptions {
  /** Where `ask` decisions go; falls back to `ctx.services.approvals`. None: refused with `APPROVAL_REQUIRED`. */
  readonly approvals?: ApprovalChannel;
  /** How long a person has to answer before the call is denied. Default 120000 (2 minutes). */
  readonly approvalTimeoutMs?: number;
  /** Told every decision (in shadow mode this is the report of what would have been refused). */
  readonly onDecision?: (event: GateEvent) => void;
  readonly name?: string;
}

function howToApprove(decision: PolicyDecision): string {
  if (decision.source === 'pin')
    return 'approve the new definition through an approval channel, or remove its pin (policy.pins.unpin) after reviewing it';
  const rules = decision.suggestedRules;
  if (decision.command !== undefined && rules.length > 0)
    return `connect an approval channel, or add ${rules.map((rule) => `"${rule}"`).join(', ')} to commands.allow in the policy config`;
  if (decision.reasonCode === 'protected-path-write')
    return 'connect an approval channel (a shell write to a protected path is asked in every mode), or make the change with a file tool';
  if (decision.reasonCode === 'script-written-by-line')
    return 'connect an approval channel (a script the line writes and runs with text the policy cannot read is asked in every mode), or run its commands directly';
  if (decision.command !== undefined)
    return 'connect an approval channel (constructs that are not fully understood are always asked)';
  return 'connect an approval channel, or add the tool to autoAllow in the policy config';
}

/** What a refusal's details say of the decision: which part decided, and the reason's code. */
const detailsOf = (decision: PolicyDecision): Record<string, unknown> =>
  decision.reasonCode === undefined
    ? { source: decision.source }
    : { source: decision.source, reasonCode: decision.reasonCode };

/**
 * The policy gate as orchestrator middleware (`phase: 'gate'`): hides what a principal may not
 * see, refuses denied calls with `DENIED` before they reach the provider, sends `ask` decisions
 * to an approval channel (timeout, then deny), and fails closed with `APPROVAL_REQUIRED` when
 * no channel is connected. In shadow mode it reports and runs.
 *
 * @example
 * orchestrator.use(policyMiddleware(policy, { approvals: createTerminalApprovalChannel({ input: process.stdin, output: process.stderr }) }));
 */
export function policyMiddleware(policy: Policy, options: PolicyMiddlewareOptions = {}): Middleware {
  const timeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const report = (
    call: ToolCall,
    decision: PolicyDecision,
    outcome: GateEvent['outcome'],
    approval?: ApprovalOutcome['status'],
  ): void => {
    try {
      options.onDecision?.({
        tool: call.tool.name,
        callId: call.ctx.callId,
        decision,
        outcome,
        ...(approval ? { approval } : {}),
      });
    } catch {
      // a failing logger must not change the decision
    }
  };

  // The call was approved: a store that cannot be written (full disk) must not turn it into a
  // throw; the approval just is not remembered, and the next call asks again.
  const remember = async (
    call: ToolCall,
    decision: PolicyDecision,
    answer: 'allow-once' | 'allow-always' | 'auto',
  ): Promise<void> => {
    try {
      await policy.remember(call, decision, answer);
    } catch {
      // not remembered
    }
  };

  const questions = createSharedQuestions();

  /**
   * A call waiting while the same question is asked for another call: after an allow-always
   * answer its decision is made again (now by the allow-list) and settles it; `undefined` when it
   * must go on (the other answer was allow-once, deny, no answer or a failure).
   */
  const afterSameQuestion = async (
    leader: Promise<ApprovalOutcome>,
    call: ToolCall,
    decision: PolicyDecision,
    next: (call: ToolCall) => Promise<ToolResult>,
  ): Promise<ToolResult | undefined> => {
    const answered = await untilSettledOrAborted(leader, call.ctx.signal);
    if (answered === 'cancelled') {
      report(call, decision, 'denied', 'cancelled');
      return fail('CANCELLED', `${call.tool.name} was cancelled while waiting for approval`);
    }
    if (answered.status !== 'answered' || answered.decision !== 'allow-always') return undefined;
    const again = await policy.check(call);
    if (again.decision === 'allow') {
      if (again.pin?.status === 'unpinned') await remember(call, again, 'auto');
      report(call, again, 'allowed');
      return next(call);
    }
    if (again.decision === 'deny') {
      report(call, again, 'denied');
      return fail(again.code ?? 'DENIED', again.reason, { details: detailsOf(again) });
    }
    return undefined;
  };

  const ask = async (
    call: ToolCall,
    decision: PolicyDecision,
    next: (call: ToolCall) => Promise<ToolResult>,
  ): Promise<ToolResult> => {
    const channel = options.approvals ?? call.ctx.services.approvals;
    if (!channel) {
      report(call, decision, 'approval-required');
      return fail(
        'APPROVAL_REQUIRED',
        `${decision.reason}. Nobody is connected to approve it, so it was refused: ${howToApprove(decision)}.`,
        {
          details: { suggestedRules: decision.suggestedRules, ...detailsOf(decision) },
        },
      );
    }
    // Parallel calls that would ask the same question (same rules to remember) ask it once.
    const key =
      decision.command !== undefined && decision.suggestedRules.length === 0
        ? undefined
        : `${decision.source}\u0000${call.tool.name}\u0000${decision.suggestedRules.join('\u0000')}`;
    const started = performance.now();
    // From the last look at the questions in flight to registering this one, nothing awaits: two
    // calls cannot both find none and both ask.
    for (let leader = key === undefined ? undefined : questions.pending(key); leader !== undefined; ) {
      const settled = await afterSameQuestion(leader, call, decision, next);
      if (settled !== undefined) return settled;
      leader = questions.pending(key as string);
    }
    const request: ApprovalRequest = {
      id: createId('approval'),
      tool: call.tool.name,
      args: call.args,
      risk: decision.risk,
      reason: decision.reason,
      ...(decision.command !== undefined ? { command: decision.command } : {}),
      ...(decision.suggestedRules.length > 0 ? { suggestedRule: decision.suggestedRules.join('; ') } : {}),
      principal: call.ctx.principal,
      sessionId: call.ctx.session.id,
      // The time spent waiting on the same question for another call counts.
      timeoutMs: Math.max(1, Math.round(timeoutMs - (performance.now() - started))),
    };
    const asked = (async (): Promise<ApprovalOutcome> => {
      const answer = await runApproval(channel, request, call.ctx.signal);
      // Remembered before the calls waiting on this question decide again.
      if (answer.status === 'answered' && answer.decision !== 'deny')
        await remember(call, decision, answer.decision);
      return answer;
    })();
    const outcome = await (key === undefined ? asked : questions.asking(key, asked));
    if (outcome.status === 'answered' && outcome.decision !== 'deny') {
      report(call, decision, 'approved', outcome.status);
      return next(call);
    }
    report(call, decision, 'denied', outcome.status);
    switch (outcome.status) {
      case 'answered':
        return fail('DENIED', `${call.tool.name} was denied by the approver (${decision.reason})`);
      case 'timeout':
        return fail(
          'DENIED',
          `no approval for ${call.tool.name} within ${Math.round(timeoutMs / 1000)} s, so it was denied (${decision.reason})`,
        );
      case 'cancelled':
        return fail('CANCELLED', `${call.tool.name} was cancelled while waiting for approval`);
      default:
        return fail(
          'DENIED',
          `the approval channel failed (${errorMessage(outcome.error)}), so ${call.tool.name} was denied`,
        );
    }
  };

  return {
    name: options.name ?? 'policy',
    phase: 'gate',
    filterTools: (tools, view) => policy.filter(tools, view),
    onToolsChanged: (tools) => {
      policy.setTools(tools);
      // load the shell grammar before the first command arrives, not inside its deadline
      if (tools.some((tool) => tool.spec.commandArgument)) void loadShellParser().catch(() => undefined);
    },
    async handle(call, next) {
      let decision: PolicyDecision;
      try {
        const pending = policy.decide(call);
        decision = pending instanceof Promise ? await pending : pending;
      } catch {
        decision = await policy.check(call);
      }
      if (decision.shadow) {
        if (decision.decision === 'allow' && decision.pin?.status === 'unpinned')
          await remember(call, decision, 'auto');
        report(call, decision, decision.decision === 'allow' ? 'allowed' : 'shadow-allowed');
        return next(call);
      }
      if (decision.decision === 'deny') {
        report(call, decision, 'denied');
        return fail(decision.code ?? 'DENIED', decision.reason, { details: detailsOf(decision) });
      }
      if (decision.decision === 'ask') return ask(call, decision, next);
      if (decision.pin?.status === 'unpinned') await remember(call, decision, 'auto');
      if (options.onDecision) report(call, decision, 'allowed');
      return next(call);
    },
  };
}
