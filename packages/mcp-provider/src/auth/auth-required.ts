import { ToolError } from '@toolplane/core';

/** The reason carried in `details.reason` of an error that a login would cure. */
export const AUTH_REQUIRED = 'AUTH_REQUIRED';

/**
 * The error of a call to a server that needs a login and has no usable token: code `DENIED`,
 * `details.reason` {@link AUTH_REQUIRED}, `details.command` the command that logs in.
 */
export function authRequiredError(
  server: string,
  command: string,
  why: string,
  extra: { readonly scope?: string } = {},
): ToolError {
  return new ToolError(
    'DENIED',
    `MCP server "${server}" needs a login (${AUTH_REQUIRED}): ${why}; run \`${command}\``,
    { details: { server, reason: AUTH_REQUIRED, command, ...extra } },
  );
}

/** The reason of a refusal that a new login would not cure: the token has every scope asked. */
export const INSUFFICIENT_SCOPE = 'INSUFFICIENT_SCOPE';

/**
 * The error of a server that answers `insufficient_scope` to a token that already holds the
 * scope it names: code `DENIED`, `details.reason` {@link INSUFFICIENT_SCOPE}. It is not
 * `AUTH_REQUIRED`, so a caller that logs in again on that reason stops here instead of looping.
 */
export function insufficientScopeError(server: string, scope: string | undefined): ToolError {
  return new ToolError(
    'DENIED',
    `MCP server "${server}" refuses the call for lack of scope${scope ? ` "${scope}"` : ''} although the stored token was granted ${scope ? 'it' : 'every scope the server named'}: a new login would ask for the same; ask the server's operator which scope the call needs`,
    { details: { server, reason: INSUFFICIENT_SCOPE, ...(scope ? { scope } : {}) } },
  );
}

/** What an `AUTH_REQUIRED` refusal carries, thrown (a `ToolError`) or in a failed result. */
export interface AuthRequiredFailure {
  readonly code: 'DENIED';
  readonly message: string;
  readonly details: {
    readonly server: string;
    readonly reason: typeof AUTH_REQUIRED;
    /** The command that logs in. */
    readonly command: string;
    /** The scope a step-up login asks for, when a server answered `insufficient_scope`. */
    readonly scope?: string;
  };
}

/**
 * Whether `error` is the error of {@link authRequiredError}: a thrown `ToolError`, or the
 * `error` of a failed call result (which carries the same code and details as plain data).
 *
 * @example
 * const result = await provider.execute('search', args, ctx);
 * if (!result.ok && isAuthRequired(result.error)) console.error(`run ${result.error.details.command}`);
 */
export function isAuthRequired(error: unknown): error is AuthRequiredFailure {
  if (typeof error !== 'object' || error === null) return false;
  const { code, details } = error as { code?: unknown; details?: unknown };
  return (
    code === 'DENIED' &&
    typeof details === 'object' &&
    details !== null &&
    (details as { reason?: unknown }).reason === AUTH_REQUIRED
  );
}
