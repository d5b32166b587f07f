import type { OverflowHandle, ToolResult, ToolError } from '@toolplane/core';
import type { ToolRoute } from './registry.js';

/**
 * Mutable facts of one call in flight, shared by the orchestrator and its built-in middleware
 * (queue wait, attempts, cache hit, overflow handle) and the call's cancellation.
 */
export class CallState {
  readonly route: ToolRoute;
  readonly priority: number;
  queueWaitMs = 0;
  attempts = 0;
  cached = false;
  truncated: OverflowHandle | undefined;
  /** Why the call was stopped (timeout, cancel), once it was. */
  stopReason: ToolError | undefined;
  /** Settles the running attempt early (set by the executor while an attempt runs). */
  settleAttempt: ((result: ToolResult) => void) | undefined;
  /** Settles the whole call early (set by `call()`). */
  settleCall: ((result: ToolResult) => void) | undefined;
  private controller: AbortController | undefined;

  constructor(route: ToolRoute, priority: number) {
    this.route = route;
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

  /** Stops the call: aborts its signal, frees its queue slot and settles it with `reason`. */
  stop(reason: ToolError): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.controller?.abort(reason);
    const failure: ToolResult = {
      ok: false,
      error: { code: reason.code, message: reason.message, retryable: reason.retryable },
    };
    this.settleAttempt?.(failure);
    this.settleCall?.(failure);
  }
}
