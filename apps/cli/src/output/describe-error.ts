import { ToolError, errorMessage } from '@toolplane/core';

/** Whether an error means the config is wrong (exit code 2). */
export function isConfigError(error: unknown): boolean {
  return ToolError.isInstance(error) && error.code === 'CONFIG_INVALID';
}

/** One line for an unexpected error. */
export function describe(error: unknown): string {
  if (ToolError.isInstance(error)) return `${error.code}: ${error.message}`;
  return `INTERNAL: ${errorMessage(error).split('\n')[0] ?? 'unknown error'}`;
}
