import { ToolError } from '@toolplane/core';
import { type CallerAbort, followCaller } from './follow-caller.js';
import { NOOP } from './noop.js';
import { isCallId } from './check-caller.js';
import type { DeadlineTimer } from './deadline-timer.js';

/** A call waiting for the providers to start: not in flight yet, so it has no state to stop. */
interface StartingCall {
  /** The caller's id, when it chose one of the right shape. */
  readonly callId: string | undefined;
  /** Set by a cancel, the caller's signal or the timeout while it waits: the call ends with it. */
  stop: ToolError | undefined;
  /** Ends the wait at once (set while the call waits). */
  end: (() => void) | undefined;
}

/** What bounds one call's wait for the start. */
export interface StartWaitLimits {
  /** The tool name the call gave (for the message of its timeout). */
  readonly tool: string;
  /** How long the call may wait: its own timeout (the start counts against it). */
  readonly timeoutMs: number;
  /** The orchestrator's deadline timer (one timer for every deadline). */
  readonly timer: DeadlineTimer;
}

/** The caller's id, read without throwing (a throwing getter is refused when the call runs). */
function chosenId(options: unknown): string | undefined {
  try {
    const given =
      typeof options === 'object' && options !== null ? (options as { callId?: unknown }).callId : undefined;
    return isCallId(given) ? given : undefined;
  } catch {
    return undefined;
  }
}

/** The caller's `signal` and `onAbort`, read without throwing (bad ones are refused when the call runs). */
function safeCallerAbort(options: unknown): CallerAbort | undefined {
  try {
    if (typeof options !== 'object' || options === null) return undefined;
    const { signal, onAbort } = options as { signal?: unknown; onAbort?: unknown };
    if (typeof onAbort === 'function') return options as CallerAbort;
    return signal instanceof AbortSignal ? { signal } : undefined;
  } catch {
    return undefined;
  }
}

/** The `TIMEOUT` of a call whose timeout passed while its provider was starting. */
function startTimeout(limits: StartWaitLimits): ToolError {
  return new ToolError(
    'TIMEOUT',
    `${limits.tool} was not run: the providers were still starting when its ${limits.timeoutMs} ms timeout passed (a call waits for the providers registered before it to start). Call warmup() first, or give the call a longer timeout`,
    { details: { timeoutMs: limits.timeoutMs } },
  );
}

/**
 * The calls made before the providers had started (the first call warms up lazily, and a
 * provider's start may take long: an MCP server installing itself). Waiting for the start is an
 * await point like any other: a cancel, the caller's signal or the call's timeout ends the wait
 * at once (before: a call waited for the start, up to `startTimeoutMs`, whatever happened), and
 * the call then ends with that stop, without running.
 */
export class StartingCalls {
  private readonly waiting = new Set<StartingCall>();

  /** Waits for `ready`; answers the stop that ended the wait (or came meanwhile), if one did. */
  async wait(
    ready: Promise<unknown>,
    options: unknown,
    limits: StartWaitLimits,
  ): Promise<ToolError | undefined> {
    const call: StartingCall = { callId: chosenId(options), stop: undefined, end: undefined };
    const stopWith = (error: ToolError): void => {
      call.stop ??= error;
      call.end?.();
    };
    this.waiting.add(call);
    const caller = safeCallerAbort(options);
    const unfollow = (caller && followCaller(caller, stopWith)) ?? NOOP;
    const deadline = limits.timer.add(limits.timer.now() + limits.timeoutMs, () =>
      stopWith(startTimeout(limits)),
    );
    try {
      if (!call.stop) {
        await new Promise<void>((resolve) => {
          call.end = resolve;
          // the start always settles (it has its own deadline): the handler does not stay for good
          ready.then(
            () => resolve(),
            () => resolve(),
          );
        });
      }
    } finally {
      call.end = undefined;
      limits.timer.remove(deadline);
      unfollow();
      this.waiting.delete(call);
    }
    return call.stop;
  }

  /** Stops the waiting calls with this id; answers whether there was one. */
  cancel(callId: string, error: ToolError): boolean {
    let found = false;
    for (const call of this.waiting) {
      if (call.callId !== callId || call.stop) continue;
      call.stop = error;
      call.end?.();
      found = true;
    }
    return found;
  }

  /** Stops every waiting call. */
  cancelAll(error: ToolError): void {
    for (const call of [...this.waiting]) {
      call.stop ??= error;
      call.end?.();
    }
  }
}
