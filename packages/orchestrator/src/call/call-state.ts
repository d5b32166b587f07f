import type { OverflowHandle, ToolError, ToolResult } from '@toolplane/core';
import { type CallerAbort, followCaller } from './follow-caller.js';
import { NOOP } from './noop.js';
import type { ToolRoute } from '../registry/registry.js';
import type { CallRecord } from '../observe/session-trees.js';
import { thrownMessage } from './thrown.js';

/**
 * Mutable facts of one call in flight, shared by the orchestrator and its built-in middleware
 * (queue wait, attempts, cache hit, overflow handle) and the call's cancellation.
 */
export class CallState {
  readonly route: ToolRoute;
  readonly callId: string;
  readonly priority: number;
  /** Where the call sits among the calls in flight (an IndexedList); -1 when it is not. */
  listIndex = -1;
  /** The call in its session's operation tree (absent when the tree is off). */
  opRecord: CallRecord | undefined;
  queueWaitMs = 0;
  attempts = 0;
  cached = false;
  truncated: OverflowHandle | undefined;
  /** Set once `call()` has its result: a late `next()` from a middleware runs nothing. */
  finished = false;
  /** Why the call was stopped (timeout, cancel), once it was. */
  stopReason: ToolError | undefined;
  /**
   * Set once an answer is on its way back to the caller (the provider answered, the cache did,
   * or a middleware's `next()` settled): a cancel from then on keeps that answer (see {@link cancel}).
   */
  answered = false;
  /** Where the provider step is: a second `next()` while it runs or after it succeeded is refused. */
  providerStep: 'running' | 'succeeded' | 'failed' | undefined;
  /** Settles the running attempt early (set by the executor while an attempt runs). */
  settleAttempt: ((result: ToolResult) => void) | undefined;
  /**
   * Settles the whole call early (set by `call()`); `cut` when it is the stop's bare failure, not
   * an answer kept for the caller.
   */
  settleCall: ((result: ToolResult, cut: boolean) => void) | undefined;
  /** Set when a stop's bare failure ended the call while its middleware still ran. */
  cutShort = false;
  /** The result the caller got, once the call has finished (what a late `next()` settles with). */
  outcome: ToolResult | undefined;
  /** What to undo when the call is cut short (output the context budget counted). */
  private refunds: Array<() => void> | undefined;
  /**
   * The running tool's own answer to a stop, used instead of the bare failure when it gives one
   * (the batch tool: the results of its calls that finished). Set only while the tool runs.
   */
  answerOnStop: ((reason: ToolError) => ToolResult | undefined) | undefined;
  private controller: AbortController | undefined;
  private stopListeners: Array<(reason: unknown) => void> | undefined;

  constructor(route: ToolRoute, callId: string, priority: number) {
    this.route = route;
    this.callId = callId;
    this.priority = priority;
  }

  /** Created on first use: a tool that never looks at its signal costs no AbortController. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.stopReason) this.controller.abort(this.stopReason);
    }
    return this.controller.signal;
  }

  /**
   * Runs `listener` once when the call stops (at once when it has); returns its remover. A plain
   * list: unlike listening on `signal`, it creates no AbortSignal (the context's `onAbort`).
   */
  onStop(listener: (reason: unknown) => void): () => void {
    if (this.stopReason) {
      listener(this.stopReason);
      return NOOP;
    }
    this.stopListeners ??= [];
    const listeners = this.stopListeners;
    listeners.push(listener);
    return () => {
      // once the stop runs the list, a removal must not shift it: the next listener was skipped
      if (this.stopListeners !== listeners) return;
      const at = listeners.indexOf(listener);
      if (at !== -1) listeners.splice(at, 1);
    };
  }

  /** Stops the call with `CANCELLED` when the caller cancels (see {@link followCaller}); returns the remover. */
  followCaller(caller: CallerAbort): () => void {
    return followCaller(caller, (error) => this.cancel(error)) ?? NOOP;
  }

  /**
   * Stops the call with a cancel, unless it is stopping already or its answer is on its way back:
   * that answer is kept, so the caller, the events, the accounting, the context budget and any
   * middleware or hook that saw it agree on one outcome. Answers whether the call was stopped.
   * (A deadline and `close()` use {@link stop}: they must end a middleware that hangs.)
   */
  cancel(reason: ToolError): boolean {
    if (this.stopReason || this.answered) return false;
    this.stop(reason);
    return true;
  }

  /** Stops the call: aborts its signal, frees its queue slot and settles it with `reason`. */
  stop(reason: ToolError): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.controller?.abort(reason);
    const listeners = this.stopListeners;
    this.stopListeners = undefined;
    // a throwing listener does not keep the others from running, nor crash the process
    if (listeners) for (const listener of listeners) runListener(listener, reason);
    const answer = this.answerFor(reason);
    const result: ToolResult = answer ?? {
      ok: false,
      error: { code: reason.code, message: reason.message, retryable: reason.retryable },
    };
    this.settleAttempt?.(result);
    this.settleCall?.(result, answer === undefined);
  }

  /** Runs `undo` if the call ends cut short (the caller never gets what was counted). */
  onCutShort(undo: () => void): void {
    this.refunds ??= [];
    this.refunds.push(undo);
  }

  /** Undoes what was counted for a call that ended cut short. */
  refund(): void {
    const refunds = this.refunds;
    this.refunds = undefined;
    if (this.cutShort && refunds) for (const undo of refunds) undo();
  }

  /** The tool's answer to the stop, if it has one (one that throws gives none). */
  private answerFor(reason: ToolError): ToolResult | undefined {
    const answer = this.answerOnStop;
    if (!answer) return undefined;
    this.answerOnStop = undefined;
    try {
      return answer(reason);
    } catch (error) {
      process.emitWarning(`a tool's answer to a stop threw: ${thrownMessage(error)}`, 'ToolplaneWarning');
      return undefined;
    }
  }
}

function runListener(listener: (reason: unknown) => void, reason: unknown): void {
  try {
    listener(reason);
  } catch (error) {
    process.emitWarning(`an onAbort listener threw: ${thrownMessage(error)}`, 'ToolplaneWarning');
  }
}
