import type { ApprovalChannel, ApprovalDecision } from '@toolplane/core';
import { fromCorePrincipal } from '../auth/core-principal.js';
import { ApiError } from '../http/api-error.js';
import { argumentsHash } from './arguments-hash.js';

/** A question of the policy waiting for an admin. */
export interface PendingApproval {
  readonly id: string;
  readonly tenantId: string;
  readonly callId: string;
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** What an answer must repeat: the sha-256 of the arguments in canonical JSON. */
  readonly argumentsHash: string;
  readonly risk: string;
  readonly reason: string;
  readonly command?: string;
  readonly suggestedRule?: string;
  readonly principal: { readonly kind: string; readonly id: string };
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** What the SSE stream carries. */
export type InboxEvent =
  | { readonly type: 'approval-requested'; readonly approval: PendingApproval }
  | {
      readonly type: 'approval-settled';
      readonly id: string;
      readonly tenantId: string;
      readonly outcome: string;
    };

/** An admin's answer; it must name the call it answers. */
export interface ApprovalAnswer {
  readonly decision: ApprovalDecision;
  readonly callId: string;
  readonly tool: string;
  readonly argumentsHash: string;
}

/**
 * The approvals inbox of one server instance: the policy's `ask` decisions wait here until an
 * admin of the tenant answers over HTTP, or the policy's timeout denies them. Each question
 * is bound to its call (tool, call id, arguments hash): an answer naming anything else is
 * refused, so an approval can never let through a call it was not asked for.
 */
export class ApprovalInbox {
  private readonly pending = new Map<
    string,
    { approval: PendingApproval; settle: (decision: ApprovalDecision) => void }
  >();
  private readonly listeners = new Set<(event: InboxEvent) => void>();

  /** The channel of one call: the policy asks it, the call id comes from the server. */
  channelFor(callId: string): ApprovalChannel {
    return {
      request: (request, signal) =>
        new Promise<ApprovalDecision>((resolve, reject) => {
          const principal = fromCorePrincipal(request.principal);
          const now = Date.now();
          const approval: PendingApproval = {
            id: request.id,
            tenantId: request.principal.tenantId ?? '',
            callId,
            tool: request.tool,
            arguments: request.args,
            argumentsHash: argumentsHash(request.args),
            risk: request.risk,
            reason: request.reason,
            ...(request.command !== undefined ? { command: request.command } : {}),
            ...(request.suggestedRule !== undefined ? { suggestedRule: request.suggestedRule } : {}),
            principal: { kind: principal?.kind ?? 'unknown', id: principal?.id ?? '' },
            createdAt: new Date(now).toISOString(),
            expiresAt: new Date(now + request.timeoutMs).toISOString(),
          };
          const done = (outcome: string): void => {
            this.pending.delete(approval.id);
            signal.removeEventListener('abort', onAbort);
            this.emit({ type: 'approval-settled', id: approval.id, tenantId: approval.tenantId, outcome });
          };
          const onAbort = (): void => {
            done('expired');
            reject(signal.reason);
          };
          if (signal.aborted) return reject(signal.reason);
          signal.addEventListener('abort', onAbort, { once: true });
          this.pending.set(approval.id, {
            approval,
            settle: (decision) => {
              done(decision);
              resolve(decision);
            },
          });
          this.emit({ type: 'approval-requested', approval });
        }),
    };
  }

  /** The questions waiting in one tenant, oldest first. */
  list(tenantId: string): PendingApproval[] {
    return [...this.pending.values()]
      .map((entry) => entry.approval)
      .filter((approval) => approval.tenantId === tenantId);
  }

  /** Answers a question of the tenant; 404 when there is none, 409 when the answer names another call. */
  answer(tenantId: string, id: string, answer: ApprovalAnswer): PendingApproval {
    const entry = this.pending.get(id);
    if (!entry || entry.approval.tenantId !== tenantId)
      throw new ApiError(
        404,
        'INVALID_ARGUMENTS',
        'not_found',
        `no pending approval "${id}" in this tenant: it was answered, or it timed out and was denied`,
      );
    const { approval } = entry;
    const mismatch = [
      answer.callId !== approval.callId ? 'callId' : undefined,
      answer.tool !== approval.tool ? 'tool' : undefined,
      answer.argumentsHash !== approval.argumentsHash ? 'argumentsHash' : undefined,
    ].filter((field) => field !== undefined);
    if (mismatch.length > 0)
      throw new ApiError(
        409,
        'INVALID_ARGUMENTS',
        'approval_mismatch',
        `the answer's ${mismatch.join(', ')} differ from the call this approval is for: answer exactly the call listed in GET /v1/approvals`,
      );
    entry.settle(answer.decision);
    return approval;
  }

  /** Listens to new and settled questions; returns the unsubscribe function. */
  subscribe(listener: (event: InboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: InboxEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
