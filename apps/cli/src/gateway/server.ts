import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createId } from '@toolplane/core';
import type { Runtime } from '../runtime/assemble.js';
import { toCallToolResult, toMcpTool } from './to-mcp.js';

/** Options of {@link createGatewayServer}. */
export interface GatewayServerOptions {
  readonly version: string;
  /** The agent id calls are made as (policy `agents.<id>` rules apply). Default `mcp-client`. */
  readonly agentId?: string;
}

/**
 * One MCP server over a runtime: `tools/list` is the orchestrator's list after policy,
 * `tools/call` goes through the whole pipeline (policy, limits, scrubbing, size cap) with the
 * client's cancellation and progress token carried through.
 */
export function createGatewayServer(runtime: Runtime, options: GatewayServerOptions): Server {
  const server = new Server(
    { name: 'toolplane', version: options.version },
    {
      capabilities: { tools: { listChanged: true } },
      instructions: runtime.orchestrator.instructions() || undefined,
    },
  );
  const sessionId = createId('mcp');
  const principal = { agentId: options.agentId ?? 'mcp-client', channel: 'mcp' };
  const view = { principal, session: { id: sessionId, depth: 0 } };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: runtime.orchestrator.listTools(view).map(toMcpTool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    const result = await runtime.orchestrator.call(request.params.name, request.params.arguments ?? {}, {
      signal: extra.signal,
      session: { id: sessionId },
      principal,
      ...(progressToken === undefined
        ? {}
        : {
            progress: (update) => {
              void extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: {
                    progressToken,
                    progress: update.progress ?? 0,
                    ...(update.total === undefined ? {} : { total: update.total }),
                    ...(update.message === undefined ? {} : { message: update.message }),
                  },
                })
                .catch(() => {});
            },
          }),
    });
    return toCallToolResult(result) as never;
  });
  const unsubscribe = runtime.orchestrator.on('tools_changed', () => {
    void server.sendToolListChanged().catch(() => {});
  });
  const previousOnClose = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previousOnClose?.();
  };
  return server;
}
