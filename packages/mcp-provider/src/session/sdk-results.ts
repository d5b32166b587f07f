import type { McpCallOutcome, McpPage, McpServerIdentity } from './session.js';

/**
 * SDK answers in the session's own shapes, shared by the v1 and v2 SDK sessions (their client
 * types differ, the wire shapes do not).
 */
export function toPage<T>(items: readonly unknown[], nextCursor: string | undefined): McpPage<T> {
  return { items: items as T[], ...(nextCursor ? { nextCursor } : {}) };
}

/** A `tools/call` result as an outcome: content (always an array), structured content, isError. */
export function toCallOutcome(result: { readonly [key: string]: unknown }): McpCallOutcome {
  return {
    content: Array.isArray(result.content) ? result.content : [],
    ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
    ...(result.isError === true ? { isError: true } : {}),
  };
}

/** What both SDK clients report about the server after initialize. */
interface InitializedClient {
  getServerCapabilities(): { tools?: { listChanged?: boolean }; resources?: object } | undefined;
  getServerVersion(): { name?: string; version?: string } | undefined;
  getInstructions(): string | undefined;
}

/** The server's identity as the session reports it, from either SDK client. */
export function identityOf(
  client: InitializedClient,
  protocolVersion: string | undefined,
): McpServerIdentity {
  const capabilities = client.getServerCapabilities() ?? {};
  const server = client.getServerVersion();
  const instructions = client.getInstructions();
  return {
    ...(server?.name === undefined ? {} : { name: server.name }),
    ...(server?.version === undefined ? {} : { version: server.version }),
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
    ...(instructions === undefined ? {} : { instructions }),
    hasTools: capabilities.tools !== undefined,
    hasResources: capabilities.resources !== undefined,
    toolsListChanged: capabilities.tools?.listChanged === true,
  };
}
