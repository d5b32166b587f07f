import type { ToolErrorCode } from '@toolplane/core';

/**
 * An HTTP failure with a core error code and a finer, stable `reason`
 * (`key_missing`, `admin_only`, `body_too_large`...), answered as
 * `{ "error": { code, reason, message } }`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ToolErrorCode;
  readonly reason: string;

  constructor(status: number, code: ToolErrorCode, reason: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.reason = reason;
  }

  toJSON(): { error: { code: ToolErrorCode; reason: string; message: string } } {
    return { error: { code: this.code, reason: this.reason, message: this.message } };
  }
}

/** A 404 for a resource of the caller's tenant that does not exist (or is another tenant's). */
export function notFound(what: string, id: string): ApiError {
  return new ApiError(
    404,
    'INVALID_ARGUMENTS',
    'not_found',
    `no ${what} "${id}" in this tenant: list them with GET to see the ids`,
  );
}
