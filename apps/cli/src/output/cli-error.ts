/** Exit codes of the `toolplane` command. */
export const EXIT_CODES = { ok: 0, toolError: 1, usage: 2 } as const;

/**
 * An error that ends a command: one readable line, an optional hint, and the exit code
 * (1 tool error, 2 usage or config error).
 */
export class CliError extends Error {
  readonly exitCode: number;
  readonly hint: string | undefined;

  constructor(message: string, options: { exitCode?: number; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT_CODES.usage;
    this.hint = options.hint;
  }
}

/** A usage or config error (exit code 2). */
export function usageError(message: string, hint?: string): CliError {
  return new CliError(message, { exitCode: EXIT_CODES.usage, ...(hint ? { hint } : {}) });
}
