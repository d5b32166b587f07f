import { ToolError } from '@toolplane/core';

/** Resolves after `ms` (never rejects). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for `promise` at most `ms`; resolves either way and never rejects. */
export async function settleWithin(promise: Promise<unknown> | unknown, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.resolve(promise).catch(() => {}),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/**
 * Runs `work` but gives up `graceMs` after `signal` aborts, rejecting with the abort reason: a
 * runner that ignores its signal cannot keep a cancelled subagent alive.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal, graceMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => {
      timer = setTimeout(() => {
        const reason = signal.reason as unknown;
        reject(ToolError.isInstance(reason) ? reason : new ToolError('CANCELLED', 'the run was cancelled'));
      }, graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, stopped]).finally(() => {
    if (timer) clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  });
}
