import type { McpCallOutcome, McpPage } from './session.js';

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
