/**
 * Stable error codes carried by every failed `ToolResult` and `ToolError`. Codes never change
 * meaning; new ones may be added.
 */
export const ERROR_CODES = [
  'TOOL_NOT_FOUND',
  'INVALID_ARGUMENTS',
  'DENIED',
  'APPROVAL_REQUIRED',
  'RATE_LIMITED',
  'BUDGET_EXCEEDED',
  'TIMEOUT',
  'CANCELLED',
  'PROVIDER_UNAVAILABLE',
  'EXECUTION_FAILED',
  'INVALID_RESULT',
  'OUTPUT_TOO_LARGE',
  'CONFIG_INVALID',
  'INTERNAL',
] as const;

/** One of {@link ERROR_CODES}. */
export type ToolErrorCode = (typeof ERROR_CODES)[number];

const RETRYABLE: ReadonlySet<ToolErrorCode> = new Set<ToolErrorCode>([
  'TIMEOUT',
  'PROVIDER_UNAVAILABLE',
  'RATE_LIMITED',
]);

/** Whether a failure with this code may succeed when tried again unchanged. */
export function isRetryableCode(code: ToolErrorCode): boolean {
  return RETRYABLE.has(code);
}

const MARKER = Symbol.for('toolplane.error');

/** Options of a {@link ToolError}. */
export interface ToolErrorOptions {
  /** Underlying error. */
  readonly cause?: unknown;
  /** Overrides the default retryability of the code. */
  readonly retryable?: boolean;
  /** Machine-readable extras (paths, limits, candidates...). */
  readonly details?: Record<string, unknown>;
}

/**
 * The one error class of toolplane: a stable `code`, a message a model and a person can act
 * on, an optional cause and details. `ToolError.isInstance` works across duplicate installs
 * of this package.
 *
 * @example
 * throw new ToolError('INVALID_ARGUMENTS', 'path must be relative to the workspace; pass "src/a.ts"');
 */
export class ToolError extends Error {
  readonly code: ToolErrorCode;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;
  protected readonly [MARKER] = true;

  constructor(code: ToolErrorCode, message: string, options: ToolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
    this.code = code;
    this.retryable = options.retryable ?? isRetryableCode(code);
    this.details = options.details;
  }

  /** True for any ToolError, even one created by another copy of `@toolplane/core`. */
  static isInstance(value: unknown): value is ToolError {
    try {
      return (
        typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true
      );
    } catch {
      return false; // a Proxy whose trap throws is not one of ours
    }
  }

  toJSON(): {
    name: string;
    code: ToolErrorCode;
    message: string;
    retryable: boolean;
    details?: Record<string, unknown>;
  } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

/** What {@link errorMessage} says of a thrown value that cannot be read. */
export const UNREADABLE_ERROR_MESSAGE = 'a thrown value whose message cannot be read';

/**
 * A readable message for anything thrown. Never throws: reading a thrown value can (a `message`
 * getter, `toJSON` or `toString` that throws, a Proxy whose traps throw), and this is called in
 * catch blocks, where a second throw would escape.
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message || error.name);
    if (typeof error === 'string') return error;
  } catch {
    return UNREADABLE_ERROR_MESSAGE;
  }
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    try {
      return String(error);
    } catch {
      return UNREADABLE_ERROR_MESSAGE;
    }
  }
}
