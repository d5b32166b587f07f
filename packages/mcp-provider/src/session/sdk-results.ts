import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpCallOutcome, McpPage, McpServerIdentity, McpToolDefinition } from './session.js';

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

/**
 * A `tools/call` result checked by hand, or what is wrong with it. Every call path reads the
 * result this way (the SDK paths ask their client for it unparsed): the clients' schemas rebuild
 * objects key by key, and a key named "__proto__" (JSON allows it) was lost or became the
 * object's prototype.
 */
export function callOutcomeOf(result: unknown): McpCallOutcome | string {
  if (typeof result !== 'object' || result === null || Array.isArray(result))
    return 'result is not an object';
  const fields = result as Record<string, unknown>;
  const content = fields.content ?? [];
  if (!Array.isArray(content)) return 'content is not an array';
  for (const block of content) {
    if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string')
      return 'a content block has no type';
  }
  const structured = fields.structuredContent;
  if (
    structured !== undefined &&
    (typeof structured !== 'object' || structured === null || Array.isArray(structured))
  )
    return 'structuredContent is not an object';
  if (fields.isError !== undefined && typeof fields.isError !== 'boolean') return 'isError is not a boolean';
  return {
    content,
    ...(structured === undefined ? {} : { structuredContent: structured }),
    ...(fields.isError === true ? { isError: true } : {}),
  };
}

/** What a call path throws for a result {@link callOutcomeOf} refused. */
export function malformedResult(problem: string): Error {
  return new Error(`the server sent a malformed tools/call result: ${problem}`);
}

/** Adds the tools of a `tools/list` page that require task-based execution (the first page starts anew). */
export function learnTaskTools(
  taskTools: Set<string>,
  tools: readonly McpToolDefinition[],
  firstPage: boolean,
): void {
  if (firstPage) taskTools.clear();
  for (const tool of tools) {
    const execution = (tool as { execution?: unknown }).execution;
    if (typeof execution === 'object' && execution !== null && Object.hasOwn(execution, 'taskSupport')) {
      if ((execution as { taskSupport?: unknown }).taskSupport === 'required') taskTools.add(tool.name);
    }
  }
}

/** The SDK 1.x client's refusal of a tool that requires task-based execution. */
export function taskRequired(name: string): McpError {
  return new McpError(
    ErrorCode.InvalidRequest,
    `Tool "${name}" requires task-based execution, which this client does not offer`,
  );
}
