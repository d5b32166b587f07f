import type { ApprovalOutcome } from './run-approval.js';

/**
 * The approvals being asked right now, by the decision an `allow-always` answer would remember
 * (the suggested command rules, or the tool). Parallel calls that would ask the same question wait
 * for the one being asked instead of asking the person again; an entry leaves when its question is
 * answered (and remembered), so the map holds only questions in flight.
 */
export interface SharedQuestions {
  /** The question being asked under `key`, if any. */
  pending(key: string): Promise<ApprovalOutcome> | undefined;
  /** Registers the question asked under `key`; it leaves when `outcome` settles. */
  asking(key: string, outcome: Promise<ApprovalOutcome>): Promise<ApprovalOutcome>;
  /** How many questions are in flight (for tests and diagnostics). */
  readonly size: number;
}

export function createSharedQuestions(): SharedQuestions {
  const inFlight = new Map<string, Promise<ApprovalOutcome>>();
  return {
    pending: (key) => inFlight.get(key),
    asking(key, outcome) {
      const shared = outcome.finally(() => {
        if (inFlight.get(key) === shared) inFlight.delete(key);
      });
      inFlight.set(key, shared);
      return shared;
    },
    get size() {
      return inFlight.size;
    },
  };
}

/**
 * Waits for `promise`, or for `signal` to abort (then `'cancelled'`, at once). The abort listener
 * is removed either way: waiting calls on one long-lived signal leave nothing on it.
 */
export function untilSettledOrAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | 'cancelled'> {
  if (signal.aborted) return Promise.resolve('cancelled');
  return new Promise((resolve) => {
    const onAbort = (): void => resolve('cancelled');
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve('cancelled');
      },
    );
  });
}
