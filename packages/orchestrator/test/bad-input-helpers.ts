import type { Middleware, RegisteredTool, ToolContext, ToolResult } from '@toolplane/core';
import { ToolError, fail } from '@toolplane/core';

// Helpers of the bad-input tests of the items the first sweep left.

/** The error code of a result, or OK. */
export function codeOf(result: ToolResult): string {
  return result.ok ? 'OK' : result.error.code;
}

/** The error message of a result, or '' when it succeeded. */
export function messageOf(result: ToolResult): string {
  return result.ok ? '' : result.error.message;
}

/** The ToolError a function throws (fails the test when it throws nothing or something else). */
export function thrownBy(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw new Error(`expected a ToolError, got ${String(error)}`);
  }
  throw new Error('expected a ToolError, nothing was thrown');
}

/** A middleware whose only part is its `filterTools`. */
export function filtering(
  name: string,
  filterTools: (tools: readonly RegisteredTool[]) => readonly RegisteredTool[],
): Middleware {
  return { name, phase: 'gate', filterTools };
}

export const VIEW = { principal: { agentId: 'coder' }, session: { id: 's1', depth: 0 } };

export interface BatchEntry {
  readonly tool: string;
  readonly ok: boolean;
  readonly text?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

export function batchEntries(result: ToolResult): BatchEntry[] {
  if (!result.ok) throw new Error(`the batch failed: ${result.error.code} ${result.error.message}`);
  return (result.structured as { results: BatchEntry[] }).results;
}

/** A tool that never answers until its call is stopped (then it reports how it was stopped). */
export function hung(sideEffect: 'none' | 'mutating', stops: string[]) {
  return {
    spec: { sideEffect },
    run: (_args: Record<string, unknown>, ctx: ToolContext) =>
      new Promise<ToolResult>((resolve) => {
        ctx.onAbort?.((reason) => {
          stops.push((reason as { code?: string }).code ?? String(reason));
          resolve(fail('CANCELLED', 'stopped'));
        });
      }),
  };
}
