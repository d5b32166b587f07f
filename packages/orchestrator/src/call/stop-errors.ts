import { ToolError, type ToolResult } from '@toolplane/core';

/** The `TIMEOUT` of a call that did not finish within its timeout. */
export function timeoutError(tool: string, timeoutMs: number): ToolError {
  return new ToolError(
    'TIMEOUT',
    `${tool} did not finish within ${timeoutMs} ms; it was stopped. Try a smaller request or a longer timeout.`,
    { details: { timeoutMs } },
  );
}

/** The failure of a call stopped before it was put in flight. */
export function stopFailure(stop: ToolError): ToolResult {
  return { ok: false, error: { code: stop.code, message: stop.message, retryable: stop.retryable } };
}
