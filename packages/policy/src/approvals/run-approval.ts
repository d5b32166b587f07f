import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '@toolplane/core';

/** Default time a person has to answer: 2 minutes (design document 002), then the call is denied. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

/** How an approval ended. */
export type ApprovalOutcome =
  | { readonly status: 'answered'; readonly decision: ApprovalDecision }
  | { readonly status: 'timeout' }
  | { readonly status: 'cancelled' }
  | { readonly status: 'failed'; readonly error: unknown };

const DECISIONS: ReadonlySet<string> = new Set(['allow-once', 'allow-always', 'deny']);

/**
 * Asks a channel and waits at most `request.timeoutMs`. The channel gets a signal that aborts
 * on timeout and on caller cancellation; a channel that ignores it is simply not waited for.
 * Anything but a valid answer in time means no approval.
 */
export async function runApproval(
  channel: ApprovalChannel,
  request: ApprovalRequest,
  callerSignal: AbortSignal,
): Promise<ApprovalOutcome> {
  if (callerSignal.aborted) return { status: 'cancelled' };
  const controller = new AbortController();
  let settle: (outcome: ApprovalOutcome) => void = () => {};
  const stopped = new Promise<ApprovalOutcome>((resolve) => {
    settle = resolve;
  });
  const timer = setTimeout(() => {
    settle({ status: 'timeout' });
    controller.abort(new Error('approval timed out'));
  }, request.timeoutMs);
  const onCancel = (): void => {
    settle({ status: 'cancelled' });
    controller.abort(new Error('call cancelled'));
  };
  callerSignal.addEventListener('abort', onCancel, { once: true });
  const answered = (async (): Promise<ApprovalOutcome> => {
    try {
      const decision = await channel.request(request, controller.signal);
      if (!DECISIONS.has(decision as string))
        return { status: 'failed', error: new Error(`invalid answer ${JSON.stringify(decision)}`) };
      return { status: 'answered', decision };
    } catch (error) {
      return { status: 'failed', error };
    }
  })();
  try {
    return await Promise.race([answered, stopped]);
  } finally {
    clearTimeout(timer);
    callerSignal.removeEventListener('abort', onCancel);
    if (!controller.signal.aborted) controller.abort(new Error('approval finished'));
  }
}
