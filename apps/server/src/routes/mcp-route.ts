import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ServerPrincipal } from '../auth/principal.js';
import { ApiError } from '../http/api-error.js';
import type { ServerApp } from '../http/env.js';
import { callTool } from './call-tool.js';
import type { RouteDeps } from './deps.js';
import { answerLean } from './mcp-lean.js';
import { toMcpResult, toMcpTools } from './mcp-result.js';

function mcpServerFor(deps: RouteDeps, principal: ServerPrincipal, signal: AbortSignal): Server {
  const server = new Server({ name: 'toolplane', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const runtime = await deps.runtimes.get(principal.tenantId);
    return { tools: toMcpTools(runtime.listTools(principal)) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    toMcpResult(
      await callTool(deps, principal, request.params.name, request.params.arguments ?? {}, { signal }),
    ),
  );
  return server;
}

/**
 * `/mcp`: streamable HTTP in the protocol's stateless mode. Tool calls, tool lists, pings and
 * notifications are answered directly ({@link answerLean}); any other POST gets a fresh MCP
 * server bound to the key's principal, whose tool list and calls go through the same runtime and grant
 * gate as the REST API; any instance can serve any request, as no session is kept.
 */
export function registerMcpRoute(app: ServerApp, deps: RouteDeps): void {
  app.post('/mcp', async (c) => {
    const principal = c.get('principal');
    const lean = await answerLean(
      deps,
      principal,
      {
        accept: c.req.header('accept'),
        contentType: c.req.header('content-type'),
        protocolVersion: c.req.header('mcp-protocol-version'),
      },
      c.get('body'),
      c.req.raw.signal,
    );
    if (lean?.status === 200) return c.json(lean.body as never, 200);
    if (lean?.status === 202) return c.body(null, 202);
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
