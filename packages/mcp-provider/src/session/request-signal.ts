import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { onAbort } from '@toolplane/core';
import type { McpRequestOptions } from './session.js';

/** Does nothing: the remover of a listener that was never added. */
export const NOOP = (): void => {};

/** The error of a request that ran past `maxTotalTimeoutMs` (`data.maxTotalTimeout` says which cap). */
export function maxTotalTimeoutError(maxTotalTimeoutMs: number): McpError {
  return new McpError(ErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
    maxTotalTimeout: maxTotalTimeoutMs,
  });
}

/** A request's own signal: see {@link requestSignal}. */
export interface RequestSignal {
  /** Absent when there is nothing to follow (no caller cancellation, no total cap). */
  readonly signal?: AbortSignal;
  /** True once `maxTotalTimeoutMs` ran out (the signal was aborted for it). */
  totalExceeded(): boolean;
  /** Call when the request ends: removes the caller listener and the total timer. */
  stop(): void;
}

const NOTHING_TO_FOLLOW: RequestSignal = { totalExceeded: () => false, stop: NOOP };

/**
 * A signal of an SDK request's own, aborted when its caller cancels or when `maxTotalTimeoutMs`
 * runs out. The SDKs add listeners to the signal they get and never remove them, so a
 * long-lived caller signal is never handed to them; the caller is heard through core's
 * `onAbort` (an orchestrator context creates no signal for it, and many requests under one
 * caller signal share one listener on it). The total cap is enforced here, not by the SDKs:
 * theirs is checked only when progress arrives, and when it trips neither SDK tells the server
 * (no `notifications/cancelled`), so a tool that keeps sending progress would run on. Aborting
 * the request's signal makes either SDK send the cancel.
 */
export function requestSignal(options: McpRequestOptions): RequestSignal {
  const total = options.maxTotalTimeoutMs;
  if (!options.abort && total === undefined) return NOTHING_TO_FOLLOW;
  const local = new AbortController();
  const stopCaller = options.abort ? onAbort(options.abort, (reason) => local.abort(reason)) : NOOP;
  let exceeded = false;
  const timer =
    total === undefined
      ? undefined
      : setTimeout(() => {
          exceeded = true;
          local.abort(maxTotalTimeoutError(total));
        }, total);
  return {
    signal: local.signal,
    totalExceeded: () => exceeded,
    stop() {
      stopCaller();
      if (timer) clearTimeout(timer);
    },
  };
}
