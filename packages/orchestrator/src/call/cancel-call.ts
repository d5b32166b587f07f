import { ToolError } from '@toolplane/core';
import { shortened } from '../output/text-bytes.js';

/** A cancel reason longer than this is cut in the result, the event and the accounting. */
export const MAX_CANCEL_REASON_LENGTH = 1000;

/** The message of a call `cancel()` or `cancelAll()` stopped when no reason was given. */
export const DEFAULT_CANCEL_ALL_REASON = 'cancelled by orchestrator.cancel()';

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** Whether a reason says nothing (left out, empty or blank): the default message is used. */
function isBlank(reason: unknown): boolean {
  return reason === undefined || (typeof reason === 'string' && reason.trim() === '');
}

/**
 * Checks the id given to `cancel(callId)`: a string (one no call in flight has is answered
 * `false`, not refused). Anything else is a bug in the caller, so it throws `INVALID_ARGUMENTS`
 * rather than answering `false`, which would look like "that call had already finished".
 */
export function checkCancelId(callId: unknown): asserts callId is string {
  if (typeof callId === 'string') return;
  throw new ToolError(
    'INVALID_ARGUMENTS',
    `cancel(callId) needs the call's id as a string; got ${kindOf(callId)} (an MCP request id that is a number must be turned into the string given as callId; cancel() with no arguments cancels every call)`,
  );
}

/**
 * The reason given to `method`, cut to {@link MAX_CANCEL_REASON_LENGTH}; undefined when it says
 * nothing. Throws `INVALID_ARGUMENTS` for a reason that is not a string.
 */
function reasonText(reason: unknown, method: string): string | undefined {
  if (isBlank(reason)) return undefined;
  if (typeof reason !== 'string') {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `the reason given to ${method} must be a string or left out; got ${kindOf(reason)}`,
    );
  }
  return shortened(reason, MAX_CANCEL_REASON_LENGTH);
}

/** The `CANCELLED` error of `cancel(callId, reason?)`; throws `INVALID_ARGUMENTS` for a reason that is not a string. */
export function cancelCallError(reason: unknown): ToolError {
  const text = reasonText(reason, 'cancel(callId, reason)');
  return new ToolError(
    'CANCELLED',
    text === undefined
      ? 'the call was cancelled by orchestrator.cancel(callId)'
      : `the call was cancelled: ${text}`,
  );
}

/** The `CANCELLED` error of `cancelAll(reason?)`; throws `INVALID_ARGUMENTS` for a reason that is not a string. */
export function cancelAllError(reason: unknown): ToolError {
  return new ToolError('CANCELLED', reasonText(reason, 'cancelAll(reason)') ?? DEFAULT_CANCEL_ALL_REASON);
}

/** The `CANCELLED` error for a caller's abort `reason` (a ToolError reason is kept as is). */
export function cancelledBy(reason: unknown): ToolError {
  if (ToolError.isInstance(reason)) return reason;
  const text =
    reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the caller aborted';
  return new ToolError('CANCELLED', `the call was cancelled: ${text}`);
}
