import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type ApprovalChannel, createId } from '@toolplane/core';
import { type SendToClient, elicitationApprovals } from './approval-elicitation.js';
import type { Runtime } from '../runtime/assemble.js';
import type { GatewayClientBridge } from './client-bridge.js';
import { type ToolCallHandler, installCallFastPath } from './call-fast-path.js';
import { exposedInstructions } from './instructions.js';
import { type GatewayNames, ownNames, prefixedNames } from './names.js';
import { installPassthrough } from './passthrough.js';
import { toCallToolResult, toMcpTool } from './to-mcp.js';
import { upstreamCapabilities, upstreamsOf } from './upstreams.js';

/** Options of {@link createGatewayServer}. */
export interface GatewayServerOptions {
  readonly version: string;
  /** The agent id calls are made as (policy `agents.<id>` rules apply). Default `mcp-client`. */
  readonly agentId?: string;
  /** Routes the upstream servers' elicitation and sampling to this server's client. */
  readonly bridge?: GatewayClientBridge;
  /** The one upstream server's own names (`--no-prefix`): tools and prompts without `server__`. */
  readonly unprefixed?: string;
  /**
   * Where approval questions go when this session's client did not declare elicitation (a
   * terminal). Without either, `ask` decisions fail closed with `APPROVAL_REQUIRED`.
   */
  readonly approvals?: ApprovalChannel;
  /** What an `APPROVAL_REQUIRED` refusal of this tool says to do (the config file and setting). */
  readonly approvalHint?: (tool: string) => string;
}

/** The SDK server with the gateway's `tools/call` fast path on every transport it connects to. */
class GatewayServer extends Server {
  constructor(
    info: ConstructorParameters<typeof Server>[0],
    options: ConstructorParameters<typeof Server>[1],
    private readonly callTool: ToolCallHandler,
  ) {
    super(info, options);
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    installCallFastPath(this, transport, this.callTool);
  }
}

/** Whether a client's capabilities take form elicitations (`{}` before URL mode meant form). */
function takesForms(elicitation: unknown): boolean {
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  const declared = elicitation as { form?: unknown; url?: unknown };
  return declared.form !== undefined || declared.url === undefined;
}

/**
 * One MCP server over a runtime: `tools/list` is the orchestrator's list after policy,
 * `tools/call` goes through the whole pipeline (policy, limits, scrubbing, size cap) with the
 * client's cancellation and progress token carried through.
 */
export function createGatewayServer(runtime: Runtime, options: GatewayServerOptions): Server {
  const sessionId = createId('mcp');
  const principal = { agentId: options.agentId ?? 'mcp-client', channel: 'mcp' };
  const view = { principal, session: { id: sessionId, depth: 0 } };
  const upstreams = upstreamsOf(runtime);
  const caps = upstreamCapabilities(upstreams);
  const passedThrough = new Set(
    upstreams
      .filter((upstream) =>
        ['resources', 'prompts'].some((key) => upstream.capabilities()[key] !== undefined),
      )
      .map((upstream) => upstream.server),
  );
  const names: GatewayNames = options.unprefixed
    ? ownNames(options.unprefixed)
    : prefixedNames(upstreams.map((upstream) => upstream.server));
  const prefix = options.unprefixed ? `${options.unprefixed}__` : '';
  const instructions = exposedInstructions(
    runtime,
    runtime.orchestrator.listTools(view).map((spec) => spec.name),
    passedThrough,
  );
  const callTool: ToolCallHandler = async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    const tool = `${prefix}${request.params.name}`;
    // the client that made the call is asked, on the call's own stream
    const approvals = takesForms(server.getClientCapabilities()?.elicitation)
      ? elicitationApprovals(extra.sendRequest)
      : options.approvals;
    const result = await runtime.orchestrator.call(tool, request.params.arguments ?? {}, {
      ...(extra.onAbort ? { onAbort: extra.onAbort } : { signal: extra.signal }),
      session: { id: sessionId },
      principal,
      ...(approvals ? { services: { approvals } } : {}),
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
    return toCallToolResult(result, ...(options.approvalHint ? [options.approvalHint(tool)] : []));
  };
  const server = new GatewayServer(
    { name: 'toolplane', version: options.version },
    {
      capabilities: {
        tools: { listChanged: true },
        ...(caps.resources
          ? { resources: { listChanged: true, ...(caps.subscribe ? { subscribe: true } : {}) } }
          : {}),
        ...(caps.prompts ? { prompts: { listChanged: true } } : {}),
        ...(caps.completions ? { completions: {} } : {}),
        ...(caps.logging ? { logging: {} } : {}),
      },
      ...(instructions ? { instructions } : {}),
    },
    callTool,
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: runtime.orchestrator
      .listTools(view)
      .map(toMcpTool)
      .map((tool) =>
        prefix && tool.name.startsWith(prefix) ? { ...tool, name: tool.name.slice(prefix.length) } : tool,
      ),
  }));
  // requests the fast path leaves to the SDK (see installCallFastPath) run the same handler
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra) =>
      (await callTool(request, {
        signal: extra.signal,
        sendNotification: extra.sendNotification,
        sendRequest: extra.sendRequest as unknown as SendToClient,
      })) as never,
  );
  const unsubscribe = runtime.orchestrator.on('tools_changed', () => {
    void server.sendToolListChanged().catch(() => {});
  });
  const stopPassthrough = installPassthrough(server, upstreams, names, runtime.scrubber);
  const detach = options.bridge?.attach(server);
  const previousOnClose = server.onclose;
  server.onclose = () => {
    unsubscribe();
    stopPassthrough();
    detach?.();
    previousOnClose?.();
  };
  return server;
}
