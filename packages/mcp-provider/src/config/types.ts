/** How a server is reached. `http` is streamable HTTP; a URL without a type tries it, then SSE. */
export type McpTransportType = 'stdio' | 'http' | 'sse' | 'websocket';

/** Which request a health probe sends. */
export type McpHealthProbe = 'ping' | 'listTools' | 'none';

/** Settings every server has, whatever its transport. */
export interface McpServerCommonConfig {
  /**
   * Which MCP client speaks to the server: `v1` (`@modelcontextprotocol/sdk` 1.x, default) or
   * `v2` (the split `@modelcontextprotocol/client`, which negotiates the stateless 2026-07-28
   * revision and an earlier one with older servers; on every transport; install it next to
   * this package).
   */
  readonly client?: 'v1' | 'v2';
  /** A disabled server is skipped by the loader. Default true. */
  readonly enabled?: boolean;
  /** Glob patterns of remote tool names to expose; absent means all (an empty list is refused). */
  readonly toolsAllowed?: readonly string[];
  /** Glob patterns of remote tool names to hide; deny wins over allow. */
  readonly toolsDenied?: readonly string[];
  /** Input schemas that replace what the server reports, by remote tool name. */
  readonly toolSchemas?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Time allowed for one request; progress notifications reset it. Default 300000 (5 min). */
  readonly requestTimeoutMs?: number;
  /** Upper bound for one request even with progress; absent means none. */
  readonly maxTotalTimeoutMs?: number;
  /** Time allowed to spawn/connect and initialize. Default 60000. */
  readonly startupTimeoutMs?: number;
  /** Health probe sent every `healthIntervalMs`. Default `ping`. */
  readonly healthProbe?: McpHealthProbe;
  /** Interval of health probes. Default 30000; 0 disables them. */
  readonly healthIntervalMs?: number;
  /** One server process shared (reference-counted) by every session that asks for it. */
  readonly shared?: boolean;
  /** Start on the first call, list tools from the on-disk cache, stop after `idleTimeoutMs`. */
  readonly lazy?: boolean;
  /** Idle time before a lazy server stops. Default 300000. */
  readonly idleTimeoutMs?: number;
  /** Queue name for the orchestrator. */
  readonly queue?: string;
  /** Response cache time-to-live in ms for every tool of the server. */
  readonly cacheTtlMs?: number;
  /** Per-tool cache time-to-live overrides, by remote tool name. */
  readonly toolsCacheTtlMs?: Readonly<Record<string, number>>;
  /** Expose resources as two tools (`list_resources`, `read_resource`). Default true when the server has resources. */
  readonly resources?: boolean;
}

/** A server started as a child process speaking JSON-RPC on stdin/stdout. */
export interface McpStdioServerConfig extends McpServerCommonConfig {
  readonly type: 'stdio';
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /** Merged onto a safe default environment (PATH, HOME, USER, SHELL, TERM, LANG, TMPDIR...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Pass the whole parent environment instead of the safe default. Default false. */
  readonly inheritEnv?: boolean;
  /** Bytes of stderr kept for error messages. Default 16384. */
  readonly stderrTailBytes?: number;
  /** Largest JSON-RPC message accepted from the server. Default 67108864 (64 MiB). */
  readonly maxMessageBytes?: number;
}

/** A server reached over the network. */
export interface McpRemoteServerConfig extends McpServerCommonConfig {
  /** `http` (streamable HTTP), `sse` (legacy), `websocket`, or absent: streamable HTTP, then SSE. */
  readonly type?: 'http' | 'sse' | 'websocket';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly bearerToken?: string;
}

/** One MCP server, as the provider takes it (already interpolated and validated). */
export type McpServerConfig = McpStdioServerConfig | McpRemoteServerConfig;

/** A stdio server given without `type`: a `command` and no `url` is enough. */
export type McpStdioServerInput = Omit<McpStdioServerConfig, 'type'> & { readonly type?: 'stdio' };

/** What `createMcpProvider` accepts: a server config, or a stdio one without its `type`. */
export type McpServerInput = McpServerConfig | McpStdioServerInput;

/**
 * The config with its transport type made explicit: `stdio` for an entry that has a `command`
 * and no `url` (as the MCP client config files write it). Anything else is returned unchanged.
 */
export function withTransportType(config: McpServerInput): McpServerConfig {
  if (typeof config !== 'object' || config === null || config.type !== undefined)
    return config as McpServerConfig;
  const record = config as { readonly command?: unknown; readonly url?: unknown };
  if (typeof record.command === 'string' && record.url === undefined)
    return { ...config, type: 'stdio' } as McpStdioServerConfig;
  return config as McpServerConfig;
}

/** Defaults applied to every server. */
export const MCP_DEFAULTS = {
  requestTimeoutMs: 300_000,
  startupTimeoutMs: 60_000,
  healthIntervalMs: 30_000,
  idleTimeoutMs: 300_000,
  stderrTailBytes: 16_384,
  maxMessageBytes: 64 * 1024 * 1024,
} as const;

/** True for a stdio server config. */
export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return config.type === 'stdio';
}
