import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '@toolplane/core';

/** Who is asking, added to an approval request a subagent makes. */
export interface SubagentApprovalInfo {
  readonly id: string;
  readonly agent: string;
  readonly depth: number;
  /** Agent names from the root to the asking subagent. */
  readonly lineage: readonly string[];
}

/** An approval request from a subagent: the parent's request, naming the child. */
export type SubagentApprovalRequest = ApprovalRequest & { readonly subagent: SubagentApprovalInfo };

/**
 * The channel a subagent asks on: the root's channel, with every request naming the subagent
 * (in `reason` and in `subagent`). A child has no channel of its own, so it never gets an
 * approval its parent could not get.
 */
export function childApprovalChannel(root: ApprovalChannel, info: SubagentApprovalInfo): ApprovalChannel {
  return {
    request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
      const named: SubagentApprovalRequest = {
        ...request,
        reason: `subagent "${info.agent}" (${info.id}, depth ${info.depth}, via ${info.lineage.join(' > ')}) asks: ${request.reason}`,
        subagent: info,
      };
      return root.request(named, signal);
    },
  };
}
