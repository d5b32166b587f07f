import type { ToolErrorCode } from '@toolplane/core';

/** Exit codes of the `toolplane` command. */
export const EXIT_CODES = { ok: 0, toolError: 1, usage: 2 } as const;

/**
 * An error that ends a command: one readable line with a stable code (core's error codes), an
 * optional hint, and the exit code (1 tool error, 2 usage or config error).
 */
export class CliError extends Error {
  readonly exitCode: number;
  readonly hint: string | undefined;
  /** Stable code printed before the message: `INVALID_ARGUMENTS` unless given. */
  readonly code: ToolErrorCode;

  constructor(
    message: string,
    options: { exitCode?: number; hint?: string; cause?: unknown; code?: ToolErrorCode } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT_CODES.usage;
    this.hint = options.hint;
    this.code = options.code ?? 'INVALID_ARGUMENTS';
  }
}

/** A usage error (exit code 2, `INVALID_ARGUMENTS`). */
export function usageError(message: string, hint?: string): CliError {
  return new CliError(message, { exitCode: EXIT_CODES.usage, ...(hint ? { hint } : {}) });
}

/** A config error (exit code 2, `CONFIG_INVALID`). */
export function configError(message: string, hint: string): CliError {
  return new CliError(message, { exitCode: EXIT_CODES.usage, code: 'CONFIG_INVALID', hint });
}
