import type { McpProviderEvent } from '../lifecycle/events.js';
import { answerElicitation } from './elicitation-handler.js';
import { elicitationFields } from './elicitation-fields.js';
import { METHOD_NOT_FOUND, ServerRequestRefusal } from './refusal.js';
import { createMcpRoots } from './roots.js';
import { SamplingPolicy } from './sampling-policy.js';
import type { ElicitationChannel, McpRootsSource, SamplingOptions } from './types.js';

/** The options of createMcpProvider that answer a server's requests. */
export interface McpClientFeatureOptions {
  readonly elicitation?: ElicitationChannel;
  readonly sampling?: SamplingOptions;
  readonly roots?: McpRootsSource | readonly string[];
}

/** The methods a server may send its client, and the option that offers each. */
export const SERVER_REQUESTS = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
} as const;
export type ServerRequestMethod = keyof typeof SERVER_REQUESTS;

/** Either SDK client as the features need it. */
export interface FeatureClient {
  handle(
    method: ServerRequestMethod,
    handler: (params: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>,
  ): void;
  rootsChanged(): Promise<void>;
}

/** One session's part: the protocol it speaks. */
export interface FeatureSession {
  protocolVersion(): string | undefined;
}

/** A provider's answers to its servers' requests, shared by every session it opens. */
export interface ClientFeatures {
  /** The client capabilities to declare: only what is configured. */
  readonly capabilities: Record<string, unknown>;
  /** Registers the handlers (before connect). */
  install(client: FeatureClient, session: FeatureSession): void;
  /**
   * After connect: requests for what is not offered are answered at once with a message saying
   * why, and root changes are sent. Returns what undoes it (on close).
   */
  attach(client: FeatureClient, transport: ReplyingTransport): () => void;
}

/** The transport surface the refusal guard uses. */
export interface ReplyingTransport {
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  send(message: never): Promise<void>;
}

/**
 * The refusal of a request the clients' own schemas would refuse with a dump of their
 * validation issues (a form with nested objects): said here, plainly, before they see it.
 */
function earlyRefusal(method: string, params: unknown): { code: number; message: string } | undefined {
  if (method !== 'elicitation/create') return undefined;
  const given = params as { mode?: unknown; requestedSchema?: unknown } | undefined;
  if ((given?.mode ?? 'form') !== 'form') return undefined;
  try {
    elicitationFields(given?.requestedSchema);
    return undefined;
  } catch (error) {
    if (error instanceof ServerRequestRefusal) return { code: error.code, message: error.message };
    throw error;
  }
}

function notOffered(server: string, method: ServerRequestMethod): string {
  const option = SERVER_REQUESTS[method];
  const why =
    option === 'elicitation'
      ? 'no elicitation channel is configured (this client runs headless), so nobody can answer'
      : option === 'sampling'
        ? 'no sampling handler is configured'
        : 'no roots are configured';
  return `${method} declined: toolplane offers no ${option} to MCP server "${server}": ${why}; the client did not declare the capability (set the provider option "${option}" to offer it)`;
}

/**
 * Builds a provider's answers from its options. Nothing configured: no capability declared, and
 * a server that asks anyway is told at once (-32601) what is missing.
 */
export function createClientFeatures(
  server: string,
  options: McpClientFeatureOptions,
  emit: (event: McpProviderEvent) => void,
): ClientFeatures {
  const channel = options.elicitation;
  const sampling = options.sampling ? new SamplingPolicy(server, options.sampling, emit) : undefined;
  const roots = Array.isArray(options.roots)
    ? createMcpRoots(options.roots as readonly string[])
    : (options.roots as McpRootsSource | undefined);
  const capabilities: Record<string, unknown> = {};
  if (channel) {
    const modes = channel.modes ?? ['form'];
    capabilities.elicitation = {
      ...(modes.includes('form') ? { form: { applyDefaults: true } } : {}),
      ...(modes.includes('url') ? { url: {} } : {}),
    };
  }
  if (sampling) capabilities.sampling = {};
  if (roots) capabilities.roots = { listChanged: true };
  const offered = new Set<string>(
    (Object.keys(SERVER_REQUESTS) as ServerRequestMethod[]).filter(
      (method) => capabilities[SERVER_REQUESTS[method]] !== undefined,
    ),
  );
  return {
    capabilities,
    install(client, session) {
      if (channel) {
        client.handle('elicitation/create', (params, signal) =>
          answerElicitation(
            { server, channel, protocolVersion: () => session.protocolVersion(), emit },
            params,
            signal,
          ),
        );
      }
      if (sampling)
        client.handle('sampling/createMessage', (params, signal) => sampling.answer(params, signal));
      if (roots)
        client.handle('roots/list', async () => ({ roots: roots.list().map((root) => ({ ...root })) }));
    },
    attach(client, transport) {
      const deliver = transport.onmessage;
      transport.onmessage = ((
        message: { id?: unknown; method?: unknown; params?: unknown },
        extra?: never,
      ) => {
        const method = message?.method;
        if (
          typeof method === 'string' &&
          method in SERVER_REQUESTS &&
          (typeof message.id === 'string' || typeof message.id === 'number')
        ) {
          const error = offered.has(method)
            ? earlyRefusal(method, message.params)
            : { code: METHOD_NOT_FOUND, message: notOffered(server, method as ServerRequestMethod) };
          if (error) {
            void transport.send({ jsonrpc: '2.0', id: message.id, error } as never).catch(() => {});
            return;
          }
        }
        deliver?.(message as never, extra);
      }) as ReplyingTransport['onmessage'];
      const stop = roots?.subscribe(() => {
        void client.rootsChanged().catch(() => {});
      });
      return () => stop?.();
    },
  };
}
