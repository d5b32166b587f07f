import type { ToolProvider, ToolSpec } from '@toolplane/core';
import type { ElicitationChannel, McpRootsSource, SamplingOptions } from './client-features/types.js';
import type { RestartPolicy } from './lifecycle/backoff.js';
import type { McpEventListener } from './lifecycle/events.js';
import type { ConnectionState } from './lifecycle/connection-types.js';
import type { McpSharedRegistry } from './lifecycle/shared-registry.js';
import type { McpServerIdentity, McpSessionFactory } from './session/session.js';
import type { McpUpstream } from './passthrough/types.js';
import type { McpAuth } from './auth/mcp-auth.js';

/** Options of {@link createMcpProvider}. */
export interface McpProviderOptions {
  /** Registry for `shared: true` servers; without one every provider has its own process. */
  readonly registry?: McpSharedRegistry;
  /** Receives lifecycle, schema and protocol events. */
  readonly onEvent?: McpEventListener;
  /** Directory of the process ledger (stdio). Default `<tmp>/toolplane-mcp-<uid>`. */
  readonly runDirectory?: string;
  /** Directory of lazy servers' tool caches. Default `~/.cache/toolplane/mcp-tools`. */
  readonly toolCacheDirectory?: string;
  readonly restartPolicy?: RestartPolicy;
  /** Time between SIGTERM and SIGKILL when stopping a stdio server. Default 1000 ms. */
  readonly killGraceMs?: number;
  /** Replaces how sessions are opened (another MCP client, tests of the lifecycle). */
  readonly sessionFactory?: McpSessionFactory;
  /**
   * Answers the server's `elicitation/create` (form mode; URL mode when the channel lists it).
   * Without it the client declares no elicitation and declines such requests at once.
   */
  readonly elicitation?: ElicitationChannel;
  /** Answers `sampling/createMessage` under approval and a token budget. */
  readonly sampling?: SamplingOptions;
  /** The workspace folders offered as roots: paths, or `createMcpRoots()` to change them later. */
  readonly roots?: McpRootsSource | readonly string[];
  /**
   * OAuth for remote HTTP and SSE servers (`createMcpAuth({ store })`): stored tokens are sent,
   * refreshed before expiry and on 401; a server that needs a login fails with `AUTH_REQUIRED`.
   */
  readonly auth?: McpAuth;
}

/** A snapshot of a provider's server. */
export interface McpProviderStatus {
  readonly server: string;
  readonly state: ConnectionState;
  readonly lastError: string;
  readonly transport?: string;
  readonly pid?: number;
  readonly tools: number;
  readonly identity?: McpServerIdentity;
}

/** A {@link ToolProvider} over one MCP server. */
export interface McpProvider extends ToolProvider {
  readonly server: string;
  /** The server's resources, prompts, completion and logging, for a gateway (see docs/passthrough.md). */
  readonly upstream?: McpUpstream;
  status(): McpProviderStatus;
  /** Lists the server's tools again (all pages) and returns the new local specs. */
  refreshTools(signal?: AbortSignal): Promise<readonly ToolSpec[]>;
  /**
   * Starts the server anew and lists its tools again, as a new provider would: a running server
   * is stopped first (its calls in flight fail with `PROVIDER_UNAVAILABLE`), its crashes are
   * forgotten, so a server marked `failed` (a crash loop, given up by the restart policy) comes
   * back once it is fixed. Rejects with the start's error when it still cannot start (the
   * provider is then as after a failed `start()`: the next call tries once more). A shared
   * server restarts for every provider holding it.
   */
  restart(signal?: AbortSignal): Promise<readonly ToolSpec[]>;
  /**
   * Sends an MCP `ping` (starting the server if it is not running) and resolves with the round
   * trip in milliseconds; rejects when the server does not answer within `timeoutMs`.
   */
  ping(options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<number>;
}
