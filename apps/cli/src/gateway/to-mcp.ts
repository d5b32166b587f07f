import type { ToolResult, ToolSpec } from '@toolplane/core';

/** An MCP `Tool` as `tools/list` returns it. */
export interface McpToolListing {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * A public spec as an MCP tool. Output schemas are not advertised: the size cap may replace
 * structured output with a stored-output handle, and MCP clients reject a result that lacks
 * the structured content an output schema promises.
 */
export function toMcpTool(spec: ToolSpec): McpToolListing {
  const schema = spec.inputSchema as Record<string, unknown>;
  const annotations = {
    ...(spec.annotations?.title ? { title: spec.annotations.title } : {}),
    ...(spec.annotations?.readOnlyHint !== undefined ? { readOnlyHint: spec.annotations.readOnlyHint } : {}),
    ...(spec.annotations?.destructiveHint !== undefined
      ? { destructiveHint: spec.annotations.destructiveHint }
      : {}),
    ...(spec.annotations?.idempotentHint !== undefined
      ? { idempotentHint: spec.annotations.idempotentHint }
      : {}),
    ...(spec.annotations?.openWorldHint !== undefined
      ? { openWorldHint: spec.annotations.openWorldHint }
      : {}),
  };
  return {
    name: spec.name,
    ...(spec.title ? { title: spec.title } : {}),
    description: spec.description,
    inputSchema: { ...schema, type: 'object' },
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}

/** How a model can get a refused call allowed, added to `APPROVAL_REQUIRED` errors. */
export const APPROVAL_HINT =
  'To allow it: run `toolplane serve mcp` in a terminal to answer approval questions, or add the tool to policy.autoAllow (or the command to policy.commands.allow) in toolplane.config.json.';

/** A result as an MCP `CallToolResult`: failures are `isError` results with the code in the text. */
export function toCallToolResult(
  result: ToolResult,
  approvalHint: string = APPROVAL_HINT,
): {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
} {
  const meta = result.meta
    ? {
        'toolplane/meta': {
          latencyMs: result.meta.latencyMs,
          cached: result.meta.cached,
          callId: result.meta.callId,
        },
      }
    : {};
  if (result.ok) {
    const structured =
      typeof result.structured === 'object' && result.structured !== null && !Array.isArray(result.structured)
        ? { structuredContent: result.structured as Record<string, unknown> }
        : {};
    return { content: [...result.content], ...structured, _meta: meta };
  }
  const hint = result.error.code === 'APPROVAL_REQUIRED' ? ` ${approvalHint}` : '';
  return {
    content: [
      ...(result.content ?? []),
      { type: 'text', text: `${result.error.code}: ${result.error.message}${hint}` },
    ],
    isError: true,
    _meta: {
      ...meta,
      'toolplane/error': { code: result.error.code, retryable: result.error.retryable ?? false },
    },
  };
}
