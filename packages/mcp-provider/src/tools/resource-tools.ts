import { ToolError, type ToolResult, type ToolSpec, ok } from '@toolplane/core';
import { nestsDeeperThan } from '../session/nesting.js';
import { MAX_RESULT_DEPTH } from '../session/output-checks.js';
import type { McpRequestOptions, McpSession } from '../session/session.js';
import { toContentBlocks } from './content.js';
import { MAX_CURSOR_LENGTH, boundedCursor } from './cursor.js';

/** Local names of the two tools that expose a server's resources. */
export const RESOURCE_TOOL_NAMES = { list: 'list_resources', read: 'read_resource' } as const;

/** Specs of the resource tools of a server. */
export function resourceToolSpecs(server: string): ToolSpec[] {
  const common = {
    annotations: { readOnlyHint: true, idempotentHint: true },
    sideEffect: 'read' as const,
    groups: ['mcp', `mcp:${server}`],
  };
  return [
    {
      ...common,
      name: RESOURCE_TOOL_NAMES.list,
      description: `Lists the resources (files, records, documents) that the MCP server "${server}" offers; pass the returned nextCursor to get more.`,
      inputSchema: {
        type: 'object',
        properties: {
          cursor: {
            type: 'string',
            maxLength: MAX_CURSOR_LENGTH,
            description: 'nextCursor of the previous page',
          },
        },
        additionalProperties: false,
      },
      meta: { server, resourceTool: 'list' },
    },
    {
      ...common,
      name: RESOURCE_TOOL_NAMES.read,
      description: `Reads one resource of the MCP server "${server}" by its URI (from ${RESOURCE_TOOL_NAMES.list}).`,
      inputSchema: {
        type: 'object',
        properties: { uri: { type: 'string', minLength: 1, description: 'URI of the resource' } },
        required: ['uri'],
        additionalProperties: false,
      },
      meta: { server, resourceTool: 'read' },
    },
  ];
}

/**
 * Runs a resource tool (`which`) on a session: one `resources/list` page, or one
 * `resources/read`. A page whose nextCursor is longer than `MAX_CURSOR_LENGTH` is
 * `INVALID_RESULT` naming `server`.
 */
export async function callResourceTool(
  server: string,
  session: McpSession,
  which: 'list' | 'read',
  args: Record<string, unknown>,
  requestOptions: McpRequestOptions,
): Promise<ToolResult> {
  if (which === 'list') {
    const page = await session.listResourcesPage(
      typeof args.cursor === 'string' ? args.cursor : undefined,
      requestOptions,
    );
    const nextCursor = boundedCursor(page.nextCursor, server, 'resources/list', 'INVALID_RESULT');
    // passed on whole (and stringified): as deep as a tool's result may be
    if (nestsDeeperThan(page.items, MAX_RESULT_DEPTH)) {
      throw new ToolError(
        'INVALID_RESULT',
        `resources/list gave resources that nest deeper than ${MAX_RESULT_DEPTH} levels, which cannot be passed on: fix the server`,
      );
    }
    const structured = { resources: page.items, ...(nextCursor ? { nextCursor } : {}) };
    return ok(JSON.stringify(structured), structured);
  }
  const contents = await session.readResource(String(args.uri), requestOptions);
  return ok(toContentBlocks(contents.map((resource) => ({ type: 'resource', resource }))));
}
