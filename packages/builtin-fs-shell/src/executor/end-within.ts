import type { ExecProcess, ExecResult } from '@toolplane/core';

/** When a command must have ended, and how long its executor gets to say so. */
export interface EndDeadline {
  /** The command's own timeout; the executor enforces it, this only checks that it did. */
  readonly timeoutMs?: number;
  /** An abort the executor was also given: from then on, only the grace period is left. */
  readonly signal?: AbortSignal;
  /** Time an executor gets past a deadline, and again after the kill that follows. */
  readonly graceMs: number;
}

/**
 * The result of a command, or undefined when its executor missed its deadline: it did not
 * report the end within `graceMs` of the command's timeout or of the abort, nor within
 * `graceMs` of the kill sent then. Executors enforce timeouts and aborts themselves; this is
 * the guard against one that never settles `done` (a bug, a lost container), so a call and
 * `close()` always end. Rejects as `done` does.
 */
export function endWithin(process: ExecProcess, deadline: EndDeadline): Promise<ExecResult | undefined> {
  const { signal, graceMs } = deadline;
  return new Promise<ExecResult | undefined>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      finish();
    };
    const giveUp = (): void => {
      // One more kill, then wait no longer for an executor that does not answer.
      void Promise.resolve()
        .then(() => process.kill())
        .catch(() => undefined);
      timer = setTimeout(() => settle(() => resolve(undefined)), graceMs);
    };
    const arm = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(giveUp, ms);
    };
    const onAbort = (): void => arm(graceMs);
    if (deadline.timeoutMs !== undefined) arm(deadline.timeoutMs + graceMs);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    process.done.then(
      (result) => settle(() => resolve(result)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/** Whether `work` settles within `ms` (its rejection counts as settling); never rejects. */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return settled;
}
