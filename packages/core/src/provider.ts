import type { ToolContext } from './context.js';
import type { ToolResult } from './result.js';
import type { ToolSpec } from './spec.js';

/** Version of the provider contract; bumped when it changes incompatibly. */
export const PROVIDER_SPEC_VERSION = 'v1';

/** Kinds of providers shipped with toolplane; others may use their own string. */
export type ProviderKind = 'builtin' | 'mcp' | 'rest' | 'agent' | 'internal' | 'local' | (string & {});

/**
 * A source of tools: an MCP server, a REST API, the built-in tools, child agents.
 * The orchestrator calls `start()` once, lists, routes calls with local tool names and
 * closes it at the end.
 */
export interface ToolProvider {
  readonly specificationVersion: typeof PROVIDER_SPEC_VERSION;
  readonly kind: ProviderKind;
  /** Valid as a tool-name prefix (`[A-Za-z0-9_-]+`). */
  readonly namespace: string;
  /**
   * Whether public names are `namespace__tool` (default true). Built-in tools set false so
   * models see `read`, `bash`.
   */
  readonly prefixNames?: boolean;
  /** Connects, spawns, loads; may be slow. Rejecting marks the provider failed. */
  start?(signal: AbortSignal): Promise<void>;
  /** Local tool specs. Called after `start()` and again when the list changes. */
  listTools(): readonly ToolSpec[] | Promise<readonly ToolSpec[]>;
  /** Runs a tool by its local name. Should return failures, may throw (turned into `EXECUTION_FAILED`). */
  execute(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
  /** Guidance for the system prompt (for example an MCP server's instructions). */
  instructions?(): string | undefined;
  /**
   * Secret values this provider holds (environment injected into a server, auth headers), so
   * the app can hand them to the scrubber for exact-value redaction. Never shown to a model.
   */
  secretValues?(): readonly string[];
  /** Subscribes to "my tool list changed"; returns the unsubscribe function. */
  onToolsChanged?(listener: () => void): () => void;
  /** Releases everything (processes, sockets). Must be safe to call twice. */
  close?(): Promise<void>;
}
