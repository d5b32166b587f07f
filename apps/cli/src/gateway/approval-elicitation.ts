import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '@toolplane/core';

/** Sends one request to the gateway's client, in the context of the call that needs approval. */
export type SendToClient = (
  request: { method: 'elicitation/create'; params: Record<string, unknown> },
  resultSchema: typeof ElicitResultSchema,
  options: { signal: AbortSignal },
) => Promise<{ action: string; content?: Record<string, unknown> }>;

const DECISIONS: ReadonlySet<string> = new Set(['allow-once', 'allow-always', 'deny']);
const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}...` : text);

/** The question a person reads in the client: the tool, its risk, why, and the command or arguments. */
export function approvalMessage(request: ApprovalRequest): string {
  const lines = [
    `Approval needed: ${request.tool} (risk ${request.risk})`,
    `Why: ${clip(request.reason, 500)}`,
  ];
  if (request.command !== undefined) lines.push(`Command: ${clip(request.command, 2000)}`);
  else lines.push(`Arguments: ${clip(JSON.stringify(request.args), 2000)}`);
  if (request.suggestedRule)
    lines.push(`"Allow always" adds, until the gateway stops: ${clip(request.suggestedRule, 500)}`);
  lines.push(`No answer in ${Math.round(request.timeoutMs / 1000)} s denies.`);
  return lines.join('\n');
}

/** The form: one required single-select field (SEP-1330 titled enum). */
export const APPROVAL_SCHEMA = {
  type: 'object',
  properties: {
    decision: {
      type: 'string',
      title: 'Decision',
      oneOf: [
        { const: 'allow-once', title: 'Allow once' },
        { const: 'allow-always', title: 'Allow always (until the gateway stops)' },
        { const: 'deny', title: 'Deny' },
      ],
      default: 'deny',
    },
  },
  required: ['decision'],
} as const;

/**
 * An approval channel that asks the gateway's client through `elicitation/create`: the answer
 * goes back to the policy as a terminal answer would (`allow-always` is remembered there). A
 * decline, a cancel or an answer that is not one of the three choices is `deny`.
 */
export function elicitationApprovals(send: SendToClient): ApprovalChannel {
  return {
    async request(request, signal): Promise<ApprovalDecision> {
      const answer = await send(
        {
          method: 'elicitation/create',
          params: { mode: 'form', message: approvalMessage(request), requestedSchema: APPROVAL_SCHEMA },
        },
        ElicitResultSchema,
        { signal },
      );
      const decision = answer.action === 'accept' ? answer.content?.decision : undefined;
      return typeof decision === 'string' && DECISIONS.has(decision)
        ? (decision as ApprovalDecision)
        : 'deny';
    },
  };
}
