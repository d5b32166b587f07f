import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalChannel } from '@toolplane/core';
import type {
  ElicitationAnswer,
  ElicitationChannel,
  ElicitationRequest,
  SamplingHandler,
  SamplingOptions,
} from '@toolplane/mcp-provider';
import { elicitationApprovals } from './approval-elicitation.js';

/**
 * What the upstream servers ask of their client, routed by the gateway: to the gateway's own
 * client when it declared the capability (the last one connected that did), else to the
 * fallbacks (a terminal, a configured model endpoint), else refused with a message saying why.
 */
export class GatewayClientBridge {
  private readonly servers: Server[] = [];

  constructor(
    private readonly fallbacks: {
      readonly elicit?: ElicitationChannel['elicit'];
      readonly sampler?: SamplingHandler;
      readonly approvals?: ApprovalChannel;
      readonly configFile?: string;
    } = {},
  ) {}

  /** A gateway session to route to while it is open. */
  attach(server: Server): () => void {
    this.servers.push(server);
    return () => {
      const at = this.servers.indexOf(server);
      if (at >= 0) this.servers.splice(at, 1);
    };
  }

  private clientWith(capability: 'elicitation' | 'sampling'): Server | undefined {
    for (let index = this.servers.length - 1; index >= 0; index--) {
      const server = this.servers[index] as Server;
      if (server.getClientCapabilities()?.[capability] !== undefined) return server;
    }
    return undefined;
  }

  /** The elicitation channel of every upstream provider. */
  readonly elicitation: ElicitationChannel = {
    modes: ['form', 'url'],
    elicit: async (request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> => {
      const client = this.clientWith('elicitation');
      if (client) {
        const declared = client.getClientCapabilities()?.elicitation as { url?: unknown } | undefined;
        if (request.mode === 'url' && declared?.url === undefined)
          throw new Error(
            `the gateway's client does not take URL elicitations: open ${request.url} yourself`,
          );
        const params =
          request.mode === 'url'
            ? {
                mode: 'url',
                message: request.message,
                url: request.url,
                elicitationId: request.elicitationId,
              }
            : { mode: 'form', message: request.message, requestedSchema: request.requestedSchema };
        const answer = await client.request(
          { method: 'elicitation/create', params } as never,
          ElicitResultSchema,
          {
            signal,
          },
        );
        return answer as ElicitationAnswer;
      }
      if (this.fallbacks.elicit) return this.fallbacks.elicit(request, signal);
      throw new Error(
        `elicitation from MCP server "${request.server}" declined: the gateway's client did not declare elicitation and no terminal is attached, so nobody can answer`,
      );
    },
  };

  /** Sampling: the gateway's client, else the configured endpoint under approval, else refused. */
  readonly sampling: SamplingOptions = {
    handler: {
      createMessage: async (request, signal) => {
        const client = this.clientWith('sampling');
        if (client) {
          const result = await client.request(
            {
              method: 'sampling/createMessage',
              params: {
                messages: request.messages,
                maxTokens: request.maxTokens,
                ...(request.systemPrompt === undefined ? {} : { systemPrompt: request.systemPrompt }),
                ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
                ...(request.stopSequences === undefined ? {} : { stopSequences: request.stopSequences }),
                ...(request.modelPreferences === undefined
                  ? {}
                  : { modelPreferences: request.modelPreferences }),
              },
            } as never,
            CreateMessageResultSchema,
            { signal },
          );
          return result as never;
        }
        if (this.fallbacks.sampler) return this.fallbacks.sampler.createMessage(request, signal);
        throw new Error(
          `sampling from MCP server "${request.server}" refused: the gateway's client did not declare sampling and no model endpoint is configured (set model.baseUrl in ${this.fallbacks.configFile ?? 'the config'})`,
        );
      },
    },
    // the gateway's client asks its user itself; the configured endpoint is asked about here
    approvals: {
      request: async (question, signal) => {
        if (this.clientWith('sampling')) return 'allow-once';
        if (!this.fallbacks.sampler) return 'allow-once'; // refused by the handler, saying why
        const asked = this.clientWith('elicitation');
        if (asked)
          return elicitationApprovals((request, schema, options) =>
            asked.request(request as never, schema, options),
          ).request(question, signal);
        if (this.fallbacks.approvals) return this.fallbacks.approvals.request(question, signal);
        throw new Error(
          `nobody can approve sampling on the model endpoint configured in ${this.fallbacks.configFile ?? 'the config'}: the gateway's client declared neither sampling nor elicitation, and no terminal is attached`,
        );
      },
    } as ApprovalChannel,
  };
}
