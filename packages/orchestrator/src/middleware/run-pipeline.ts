import { type NextMiddleware, type ToolCall, type ToolResult, fail } from '@toolplane/core';
import type { CallState } from '../call/call-state.js';
import { thrownMessage } from '../call/thrown.js';

/** The result of a call whose middleware chain threw or rejected. */
export function pipelineFailure(error: unknown): ToolResult {
  return fail('INTERNAL', `the pipeline failed: ${thrownMessage(error)}`);
}

/**
 * Runs a call through the composed chain; it may reject (or throw) when a middleware does. With only built-in steps (none can hang) a stop
 * settles the provider step itself; with user middleware or hooks the call also races its
 * deadline, so a hung middleware cannot hang the call.
 */
export function runPipeline(
  dispatch: NextMiddleware,
  raceDeadline: boolean,
  state: CallState,
  call: ToolCall,
): Promise<ToolResult> {
  const stopped = state.stopReason;
  if (stopped) {
    return Promise.resolve({
      ok: false,
      error: { code: stopped.code, message: stopped.message, retryable: stopped.retryable },
    });
  }
  // the caller turns a rejection into pipelineFailure() (an await costs less than a catch())
  if (!raceDeadline) return dispatch(call);
  return new Promise<ToolResult>((resolve) => {
    let settled = false;
    const settle = (result: ToolResult): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    state.settleCall = (result, cut) => {
      // the chain may have settled in the same tick: then its result stands
      if (!settled && cut) state.cutShort = true;
      settle(result);
    };
    dispatch(call).then(settle, (error: unknown) => settle(pipelineFailure(error)));
  });
}
