import { ToolError } from '@toolplane/core';
import { eitherSignal } from '../lifecycle/either-signal.js';
import type { McpProviderEvent } from '../lifecycle/events.js';
import { protocolErrorEvents } from '../lifecycle/protocol-errors.js';
import type { McpSession, McpToolDefinition } from '../session/session.js';
import { MAX_PAGES, boundedCursor, tooManyPages } from './cursor.js';

/** What {@link listAllTools} needs besides the session. */
export interface ListAllOptions {
  readonly server: string;
  readonly requestTimeoutMs: number;
  readonly emit: (event: McpProviderEvent) => void;
  readonly signal?: AbortSignal;
}

/**
 * Every tool a server lists, page by page (past `MAX_PAGES` it fails with
 * `PROVIDER_UNAVAILABLE`; a repeated cursor stops it; a cursor longer than `MAX_CURSOR_LENGTH` fails it with `PROVIDER_UNAVAILABLE`). The whole listing, every page together, gets `requestTimeoutMs` (a listing is one
 * question to the server, paged): a server that sends page after page, each in time, held a
 * start or a re-list for up to 1000 times that; past it the listing fails with `TIMEOUT`. Entries the session dropped and later definitions of a remote name already listed
 * are reported as `protocol-error` events and left out, coalesced as a session's protocol errors
 * are (a list of thousands of bad definitions is a few events that count them all).
 */
export async function listAllTools(
  session: McpSession,
  options: ListAllOptions,
): Promise<McpToolDefinition[]> {
  const reports = protocolErrorEvents(options.server, options.emit);
  const whole = new AbortController();
  let pages = 0;
  const timer = setTimeout(
    () => whole.abort(new Error('the whole listing took too long')),
    options.requestTimeoutMs,
  );
  const either = options.signal ? eitherSignal([options.signal, whole.signal]) : undefined;
  const signal = either?.signal ?? whole.signal;
  try {
    return await listPages(
      session,
      { ...options, signal },
      (message) => reports.add(message),
      () => pages++,
    );
  } catch (error) {
    if (!whole.signal.aborted || options.signal?.aborted) throw error;
    throw new ToolError(
      'TIMEOUT',
      `MCP server "${options.server}": tools/list did not finish within ${options.requestTimeoutMs} ms (requestTimeoutMs bounds the whole listing) after ${pages} pages; raise requestTimeoutMs if the server has that many tools, or fix its paging`,
      { cause: error },
    );
  } finally {
    either?.release();
    clearTimeout(timer);
    reports.flush();
  }
}

async function listPages(
  session: McpSession,
  options: ListAllOptions,
  problem: (message: string) => void,
  pageDone: () => void,
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
    pageDone();
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
    const next = boundedCursor(
      result.nextCursor,
      options.server,
      `tools/list page ${page + 1}`,
      'PROVIDER_UNAVAILABLE',
    );
    if (!next) return all;
    if (seen.has(next)) {
      problem(`tools/list repeated cursor ${next.slice(0, 100)}; stopped paging`);
      return all;
    }
    seen.add(next);
    cursor = next;
  }
  // a listing cut short is not the server's tools: one of the rest may be the one a caller needs
  throw new ToolError(
    'PROVIDER_UNAVAILABLE',
    `MCP server "${options.server}": ${tooManyPages('tools/list')}`,
    {
      details: { server: options.server, pages: MAX_PAGES },
    },
  );
}
