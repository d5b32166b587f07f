import type { JsonSchema } from '@toolplane/core';

/** The default deadline of a custom tool's command. */
export const DEFAULT_CUSTOM_TOOL_TIMEOUT_MS = 60_000;

/** A shell tool defined at runtime over the API: one command, its arguments from the call. */
export interface CustomTool {
  readonly tenantId: string;
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an object schema). */
  readonly parameters: JsonSchema;
  /**
   * The command and its arguments. `{param}` in an element is replaced by that argument's
   * value, and the element stays one argument whatever the value holds: no shell reads it.
   */
  readonly argv: readonly string[];
  readonly timeoutMs: number;
  readonly cwd: string | null;
  /** Environment of the command, stored sealed with AES-256-GCM. */
  readonly env: Readonly<Record<string, string>>;
  /** Only this agent sees and calls the tool; `null` for every principal its grants allow. */
  readonly scopeAgent: string | null;
  readonly updatedAt: string;
}
