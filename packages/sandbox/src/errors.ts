import { ToolError, type ToolErrorCode } from '@toolplane/core';

/**
 * Why a sandbox could not run a command, as a stable string kept in a {@link ToolError}'s
 * `details.sandboxCode`: the error's `code` says what a caller does (retry later, fix the
 * configuration), this says what to fix.
 */
export type SandboxFailureCode =
  /** The Docker engine did not answer (not running, wrong socket, no permission). */
  | 'SANDBOX_ENGINE_UNREACHABLE'
  /** The configured image is not on the engine. */
  | 'SANDBOX_IMAGE_MISSING'
  /** bubblewrap is not installed, or not where it was said to be. */
  | 'SANDBOX_BWRAP_MISSING'
  /** bubblewrap could not create its namespaces (user namespaces off, AppArmor). */
  | 'SANDBOX_NAMESPACES_DENIED'
  /** The working directory of a request is outside the sandbox's workspace. */
  | 'SANDBOX_CWD_OUTSIDE_WORKSPACE'
  /** The workspace does not exist or is not a directory. */
  | 'SANDBOX_WORKSPACE_INVALID'
  /** The engine refused to create or start the sandbox for another reason. */
  | 'SANDBOX_START_FAILED'
  /** The executor was closed. */
  | 'SANDBOX_CLOSED';

const TOOL_CODES: Record<SandboxFailureCode, ToolErrorCode> = {
  SANDBOX_ENGINE_UNREACHABLE: 'PROVIDER_UNAVAILABLE',
  SANDBOX_IMAGE_MISSING: 'CONFIG_INVALID',
  SANDBOX_BWRAP_MISSING: 'CONFIG_INVALID',
  SANDBOX_NAMESPACES_DENIED: 'PROVIDER_UNAVAILABLE',
  SANDBOX_CWD_OUTSIDE_WORKSPACE: 'INVALID_ARGUMENTS',
  SANDBOX_WORKSPACE_INVALID: 'CONFIG_INVALID',
  SANDBOX_START_FAILED: 'EXECUTION_FAILED',
  SANDBOX_CLOSED: 'PROVIDER_UNAVAILABLE',
};

/** Which failures mean "no sandbox can run here now", the ones a host fallback may cover. */
const UNAVAILABLE: ReadonlySet<SandboxFailureCode> = new Set<SandboxFailureCode>([
  'SANDBOX_ENGINE_UNREACHABLE',
  'SANDBOX_IMAGE_MISSING',
  'SANDBOX_BWRAP_MISSING',
  'SANDBOX_NAMESPACES_DENIED',
]);

/**
 * A {@link ToolError} for a sandbox failure, its {@link SandboxFailureCode} in
 * `details.sandboxCode`.
 *
 * @example
 * throw sandboxError('SANDBOX_IMAGE_MISSING', 'image "x" is missing: docker pull x');
 */
export function sandboxError(
  sandboxCode: SandboxFailureCode,
  message: string,
  options: { readonly cause?: unknown; readonly details?: Record<string, unknown> } = {},
): ToolError {
  return new ToolError(TOOL_CODES[sandboxCode], message, {
    cause: options.cause,
    details: { ...options.details, sandboxCode },
  });
}

/**
 * The {@link SandboxFailureCode} of an error made by this package, or undefined.
 *
 * @example
 * if (sandboxFailureCode(error) === 'SANDBOX_ENGINE_UNREACHABLE') startTheEngine();
 */
export function sandboxFailureCode(error: unknown): SandboxFailureCode | undefined {
  if (!ToolError.isInstance(error)) return undefined;
  const code = error.details?.['sandboxCode'];
  return typeof code === 'string' && code in TOOL_CODES ? (code as SandboxFailureCode) : undefined;
}

/** True when the error says no sandbox of this kind can run here (engine, image, namespaces). */
export function isSandboxUnavailable(error: unknown): boolean {
  const code = sandboxFailureCode(error);
  return code !== undefined && UNAVAILABLE.has(code);
}
