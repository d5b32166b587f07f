import {
  type ToolErrorCode,
  type ToolFailure,
  ToolError,
  UNREADABLE_ERROR_MESSAGE,
  errorMessage,
  fail,
} from '@toolplane/core';

// Thrown values read without throwing: core's `errorMessage` reads `message`, `toJSON` and
// `toString`, and `ToolError.isInstance` a property, any of which may throw (a getter, a Proxy
// whose traps throw); such a throw escaped the step that was to settle the call.

/** What a thrown value says; undefined when reading it throws. */
function readMessage(error: unknown): string | undefined {
  try {
    const message = errorMessage(error);
    return message === UNREADABLE_ERROR_MESSAGE ? undefined : message;
  } catch {
    return undefined;
  }
}

function isError(error: unknown): boolean {
  try {
    return error instanceof Error;
  } catch {
    return false;
  }
}

/** Whether `error` is a ToolError, read without throwing. */
export function isToolError(error: unknown): error is ToolError {
  try {
    return ToolError.isInstance(error);
  } catch {
    return false;
  }
}

/** `an Error`, `an object`, `a number`: what was thrown. */
function kindOf(error: unknown): string {
  if (isError(error)) return 'an Error';
  const type = typeof error;
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}

/** What a thrown value says, never throwing (`an object whose message cannot be read`). */
export function thrownMessage(error: unknown): string {
  return readMessage(error) ?? `${kindOf(error)} whose message cannot be read`;
}

/** The failure for a ToolError: its code, message, retryable flag and details. */
function fromToolError(error: ToolError): ToolFailure {
  return fail(error.code, error.message, {
    retryable: error.retryable,
    ...(error.details ? { details: error.details } : {}),
  });
}

/** `failFromError` that never throws: a value that cannot be read fails `fallback` saying so. */
export function failureFrom(error: unknown, fallback: ToolErrorCode = 'EXECUTION_FAILED'): ToolFailure {
  return isToolError(error) ? fromToolError(error) : fail(fallback, thrownMessage(error));
}

/**
 * The failure of a provider that threw or rejected with `error`: a ToolError keeps its code; an
 * Error or a non-empty string gives its message; anything else (undefined, null, a plain object,
 * a value that cannot be read) is named, as the provider's bug.
 */
export function providerFailure(error: unknown, provider: string, tool: string): ToolFailure {
  if (isToolError(error)) return fromToolError(error);
  const message = readMessage(error);
  if (message && (typeof error === 'string' || isError(error))) return fail('EXECUTION_FAILED', message);
  if (message === undefined) {
    return fail(
      'EXECUTION_FAILED',
      `provider "${provider}" failed ${tool} with ${kindOf(error)} whose message cannot be read (a getter or Proxy that throws); this is a bug in the provider`,
    );
  }
  const what =
    error === undefined || error === null
      ? String(error)
      : error === ''
        ? 'an empty string'
        : `${kindOf(error)} (${message.slice(0, 200)})`;
  return fail(
    'EXECUTION_FAILED',
    `provider "${provider}" failed ${tool} with ${what} instead of an Error; this is a bug in the provider`,
  );
}
