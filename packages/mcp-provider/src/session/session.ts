import type { AbortSource } from '@toolplane/core';
import type { ClientFeatures } from '../client-features/client-features.js';
import type { McpPassthrough } from '../passthrough/types.js';

/**
 * The provider's own view of one MCP connection. The SDK stays behind it, so which client
 * speaks to a server (SDK 1.x, or the v2 client for the stateless revision) is a local choice.
 */

/** A tool as the server reports it. */
export interface McpToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/** One page of a list. */
export interface McpPage<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
  /** Why entries of the page were left out (a tool definition the protocol does not allow). */
  readonly dropped?: readonly string[];
}

/** A resource as the server lists it. */
export interface McpResourceInfo {
  readonly uri: string;
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
}

/** Options of one request. */
export interface McpRequestOptions {
  /**
   * The caller's cancellation: a tool context, or `{ signal }` for a plain signal. Heard through
   * core's `onAbort`, so a context's `signal` is touched only where no `onAbort` exists.
   */
  readonly abort?: AbortSource;
  readonly timeoutMs: number;
  /** Progress notifications restart the timer. */
  readonly resetTimeoutOnProgress?: boolean;
  /** A hard cap for the whole request, progress or not: it then fails and the server is told. */
  readonly maxTotalTimeoutMs?: number;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** The result of `tools/call`, as sent. */
export interface McpCallOutcome {
  readonly content: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

/** What `initialize` told us. */
export interface McpServerIdentity {
  readonly name?: string;
  readonly version?: string;
  readonly protocolVersion?: string;
  readonly instructions?: string;
  readonly hasTools: boolean;
  readonly hasResources: boolean;
  readonly toolsListChanged: boolean;
}

/** An open connection to one server. */
export interface McpSession {
  readonly identity: McpServerIdentity;
  /** The transport that was used (`stdio`, `http`, `sse`, `websocket`). */
  readonly transport: string;
  listToolsPage(cursor: string | undefined, options: McpRequestOptions): Promise<McpPage<McpToolDefinition>>;
  callTool(name: string, args: Record<string, unknown>, options: McpRequestOptions): Promise<McpCallOutcome>;
  listResourcesPage(
    cursor: string | undefined,
    options: McpRequestOptions,
  ): Promise<McpPage<McpResourceInfo>>;
  readResource(uri: string, options: McpRequestOptions): Promise<readonly unknown[]>;
  ping(options: McpRequestOptions): Promise<void>;
  /** Closes the connection and, for stdio, kills the whole process tree. Safe to call twice. */
  close(): Promise<void>;
  /** Called once when the connection ends for any reason (not after `close()`). */
  onClose(listener: (reason: string) => void): void;
  onToolsChanged(listener: () => void): void;
  /** Malformed messages and transport errors that did not end the connection. */
  onProtocolError(listener: (message: string) => void): void;
  /** Recent stderr of a stdio server, or the last transport error: for error messages. */
  diagnostics(): string;
  /** Process ids of a stdio server (the direct child), for ledgers and tests. */
  readonly pid?: number;
  /** Requests and notifications beyond tools, for a gateway (SDK 1.x client sessions). */
  readonly passthrough?: McpPassthrough;
}

/** Opens a session; rejects with a clear message when the server cannot be reached. */
export type McpSessionFactory = (options: { signal: AbortSignal; timeoutMs: number }) => Promise<McpSession>;

/** How the provider opens a session: its bounds, and what the client offers the server. */
export interface SessionOpenOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** The provider's answers to the server's requests (elicitation, sampling, roots). */
  readonly features?: ClientFeatures;
}
