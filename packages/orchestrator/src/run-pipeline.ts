import { type NextMiddleware, type ToolCall, type ToolResult, fail } from '@toolplane/core';
import type { CallState } from './call-state.js';

function pipelineFailure(error: unknown): ToolResult {
  return fail('INTERNAL', `the pipeline failed: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * Runs a call through the composed chain. With only built-in steps (none can hang) a stop
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
  if (!raceDeadline) return dispatch(call).catch(pipelineFailure);
  return new Promise<ToolResult>((resolve) => {
    state.settleCall = resolve;
    dispatch(call).then(resolve, (error: unknown) => resolve(pipelineFailure(error)));
  });
}
