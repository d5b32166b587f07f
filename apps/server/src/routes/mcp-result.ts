import type { ToolResult, ToolSpec } from '@toolplane/core';

type McpContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** A tool result as MCP's `tools/call` answers it. */
export function toMcpResult(result: ToolResult): {
  content: McpContent[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
} {
  if (!result.ok)
    return {
      content: [{ type: 'text', text: `${result.error.code}: ${result.error.message}` }],
      isError: true,
    };
  const content: McpContent[] = result.content.map((block) =>
    block.type === 'image'
      ? { type: 'image', data: block.data, mimeType: block.mimeType }
      : { type: 'text', text: block.type === 'text' ? block.text : JSON.stringify(block) },
  );
  return content.length > 0 ? { content } : { content: [{ type: 'text', text: '' }] };
}

/** Tools as MCP's `tools/list` answers them. */
export function toMcpTools(tools: readonly ToolSpec[]): {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
}[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema as { type: 'object'; [key: string]: unknown },
  }));
}
