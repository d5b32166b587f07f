import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '@toolplane/core';
import type { ServerPrincipal } from '../auth/principal.js';
import { ApiError } from '../http/api-error.js';
import type { ServerApp } from '../http/env.js';
import { callTool } from './call-tool.js';
import type { RouteDeps } from './deps.js';

type McpContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

function toMcpResult(result: ToolResult): {
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

function mcpServerFor(deps: RouteDeps, principal: ServerPrincipal, signal: AbortSignal): Server {
  const server = new Server({ name: 'toolplane', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const runtime = await deps.runtimes.get(principal.tenantId);
    return {
      tools: runtime.listTools(principal).map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as { type: 'object'; [key: string]: unknown },
      })),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    toMcpResult(
      await callTool(deps, principal, request.params.name, request.params.arguments ?? {}, { signal }),
    ),
  );
  return server;
}

/**
 * `/mcp`: streamable HTTP in the protocol's stateless mode. Each POST gets a fresh MCP server
 * bound to the key's principal, whose tool list and calls go through the same runtime and grant
 * gate as the REST API; any instance can serve any request, as no session is kept.
 */
export function registerMcpRoute(app: ServerApp, deps: RouteDeps): void {
  app.post('/mcp', async (c) => {
    const principal = c.get('principal');
    const server = mcpServerFor(deps, principal, c.req.raw.signal);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw, { parsedBody: c.get('body') });
    } finally {
      await server.close();
    }
  });
  app.on(['GET', 'DELETE'], '/mcp', () => {
    throw new ApiError(
      405,
      'INVALID_ARGUMENTS',
      'method_not_allowed',
      'this MCP endpoint is stateless: send JSON-RPC with POST (no SSE stream, no session to delete)',
    );
  });
}
