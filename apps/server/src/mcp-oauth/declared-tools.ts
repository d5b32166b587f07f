import type { ToolSpec } from '@toolplane/core';
import { ApiError } from '../http/api-error.js';
import type { McpServerAuth } from '../mcp-servers/mcp-server-store.js';

/** A tool an admin declares for a per-user OAuth server at registration. */
export interface DeclaredTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema?: Record<string, unknown> | undefined;
}

/**
 * The specs of the tools an admin declared for `server`, listed before any user linked it.
 * Only a per-user OAuth server takes them: the others list their tools from the server itself.
 */
export function declaredTools(server: string, auth: McpServerAuth, tools: readonly unknown[]): ToolSpec[] {
  const refuse = (why: string): never => {
    throw new ApiError(400, 'INVALID_ARGUMENTS', 'invalid_mcp_server', `"tools" ${why}`);
  };
  if (auth !== 'oauth-per-user')
    refuse('is for "auth": "oauth-per-user" servers only: the others list their tools from the server');
  const seen = new Set<string>();
  return (tools as readonly DeclaredTool[]).map((tool) => {
    if (seen.has(tool.name)) refuse(`names "${tool.name}" twice`);
    seen.add(tool.name);
    const inputSchema = tool.inputSchema ?? { type: 'object' };
    if (inputSchema.type !== 'object')
      refuse(`entry "${tool.name}" has an inputSchema whose "type" is not "object"`);
    return {
      name: tool.name,
      description: tool.description ?? tool.name,
      inputSchema,
      groups: ['mcp', `mcp:${server}`],
      meta: { server, remoteName: tool.name, declared: true },
    };
  });
}
