import type { McpProviderEvent } from '../lifecycle/events.js';
import { protocolErrorEvents } from '../lifecycle/protocol-errors.js';
import type { McpSession, McpToolDefinition } from '../session/session.js';

/** Pages of `tools/list` followed at most. */
const MAX_PAGES = 1000;

/** What {@link listAllTools} needs besides the session. */
export interface ListAllOptions {
  readonly server: string;
  readonly requestTimeoutMs: number;
  readonly emit: (event: McpProviderEvent) => void;
  readonly signal?: AbortSignal;
}

/**
 * Every tool a server lists, page by page (bounded at {@link MAX_PAGES}; a repeated cursor
 * stops it). Entries the session dropped and later definitions of a remote name already listed
 * are reported as `protocol-error` events and left out, coalesced as a session's protocol errors
 * are (a list of thousands of bad definitions is a few events that count them all).
 */
export async function listAllTools(
  session: McpSession,
  options: ListAllOptions,
): Promise<McpToolDefinition[]> {
  const reports = protocolErrorEvents(options.server, options.emit);
  try {
    return await listPages(session, options, (message) => reports.add(message));
  } finally {
    reports.flush();
  }
}

async function listPages(
  session: McpSession,
  options: ListAllOptions,
  problem: (message: string) => void,
): Promise<McpToolDefinition[]> {
  const { signal } = options;
  const all: McpToolDefinition[] = [];
  const remoteNames = new Set<string>();
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await session.listToolsPage(cursor, {
      timeoutMs: options.requestTimeoutMs,
      ...(signal ? { abort: { signal } } : {}),
    });
    for (const message of result.dropped ?? []) problem(message);
    for (const item of result.items) {
      // a second definition under the same remote name would be called as the first one
      if (remoteNames.has(item.name)) {
        problem(
          `tools/list lists "${item.name.slice(0, 100)}" more than once: the first definition is kept (fix the server)`,
        );
        continue;
      }
      remoteNames.add(item.name);
      all.push(item);
    }
    if (!result.nextCursor) return all;
    if (seen.has(result.nextCursor)) {
      problem(`tools/list repeated cursor ${result.nextCursor.slice(0, 100)}; stopped paging`);
      return all;
    }
    seen.add(result.nextCursor);
    cursor = result.nextCursor;
  }
  problem(`tools/list returned more than ${MAX_PAGES} pages; stopped paging`);
  return all;
}
