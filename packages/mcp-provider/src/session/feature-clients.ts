import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { FeatureClient, ServerRequestMethod } from '../client-features/client-features.js';

const V1_SCHEMAS = {
  'elicitation/create': ElicitRequestSchema,
  'sampling/createMessage': CreateMessageRequestSchema,
  'roots/list': ListRootsRequestSchema,
} as const;

/** A signal that never aborts, for a handler whose client gives none. */
const NEVER = new AbortController().signal;

/** The SDK 1.x client's handlers for a server's requests. */
export function v1FeatureClient(client: Client): FeatureClient {
  return {
    handle(method: ServerRequestMethod, handler) {
      client.setRequestHandler(
        V1_SCHEMAS[method] as never,
        ((request: { params?: Record<string, unknown> }, extra: { signal?: AbortSignal }) =>
          handler(request.params ?? {}, extra?.signal ?? NEVER)) as never,
      );
    },
    rootsChanged: () => client.sendRootsListChanged(),
  };
}

/** The v2 client's surface used here (its handlers take the method name). */
interface V2Handlers {
  setRequestHandler(method: string, handler: (request: never, ctx: never) => unknown): void;
  sendRootsListChanged(): Promise<void>;
}

/**
 * The v2 client's handlers. On a 2026-07-28 session the client answers a server's
 * `input_required` results through these same handlers, then retries the call.
 */
export function v2FeatureClient(client: V2Handlers): FeatureClient {
  return {
    handle(method: ServerRequestMethod, handler) {
      client.setRequestHandler(method, ((
        request: { params?: Record<string, unknown> },
        ctx: { mcpReq?: { signal?: AbortSignal }; signal?: AbortSignal },
      ) => handler(request.params ?? {}, ctx?.mcpReq?.signal ?? ctx?.signal ?? NEVER)) as never);
    },
    rootsChanged: () => client.sendRootsListChanged(),
  };
}
