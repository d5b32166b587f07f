import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '@toolplane/core';

/**
 * An approval channel that calls a function: wire it to a UI, a chat message, a test.
 *
 * @example
 * const channel = createCallbackApprovalChannel(async (request) =>
 *   request.tool === 'write' ? 'allow-once' : 'deny',
 * );
 */
export function createCallbackApprovalChannel(
  callback: (request: ApprovalRequest, signal: AbortSignal) => ApprovalDecision | Promise<ApprovalDecision>,
): ApprovalChannel {
  return { request: async (request, signal) => callback(request, signal) };
}
