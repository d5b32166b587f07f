import { type ToolResult, contentText, fail, ok, textContent } from '@toolplane/core';
import type { McpServerConfig } from './config/types.js';
import type { McpCallOutcome } from './session/session.js';
import { toContentBlocks } from './tools/content.js';

/** Maps a `tools/call` result: `isError` becomes an `EXECUTION_FAILED` failure with the server's text. */
export function resultOf(server: string, tool: string, outcome: McpCallOutcome): ToolResult {
  const blocks = toContentBlocks(outcome.content);
  if (outcome.isError) {
    const text = contentText(blocks) || 'the server gave no details';
    return fail('EXECUTION_FAILED', `MCP server "${server}" tool "${tool}" reported an error: ${text}`, {
      content: blocks,
      retryable: false,
    });
  }
  if (outcome.structuredContent !== undefined) {
    const content = blocks.length > 0 ? blocks : [textContent(JSON.stringify(outcome.structuredContent))];
    return ok(content, outcome.structuredContent);
  }
  return ok(blocks);
}

/** Values a scrubber should redact: injected env values, headers and bearer tokens (short values excluded). */
export function secretValuesOf(config: McpServerConfig): string[] {
  const values = new Set<string>();
  const add = (value: string | undefined): void => {
    if (value && value.length >= 6) values.add(value);
  };
  if (config.type === 'stdio') {
    for (const value of Object.values(config.env ?? {})) add(value);
  } else {
    for (const value of Object.values(config.headers ?? {})) {
      add(value);
      const bearer = /^(?:Bearer|Basic|Token)\s+(.+)$/i.exec(value);
      if (bearer) add(bearer[1]);
    }
    add(config.bearerToken);
    try {
      const url = new URL(config.url);
      add(url.password ? decodeURIComponent(url.password) : undefined);
    } catch {
      // validated elsewhere
    }
  }
  return [...values];
}
