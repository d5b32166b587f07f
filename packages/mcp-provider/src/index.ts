// @toolplane/mcp-provider: everything exported here is public API.
export { type McpConfigFormat, normalizeDocument } from './config/formats.js';
export { type InterpolationContext, type InterpolationOutcome, interpolate } from './config/interpolate.js';
export { type LoadMcpConfigOptions, type LoadedMcpConfig, loadMcpConfig } from './config/load.js';
export { type McpConfigProblem, problemToError } from './config/problems.js';
export { SERVER_NAME_PATTERN } from './config/server-name.js';
export {
  MCP_DEFAULTS,
  type McpHealthProbe,
  type McpRemoteServerConfig,
  type McpServerCommonConfig,
  type McpServerConfig,
  type McpStdioServerConfig,
  type McpTransportType,
  isStdioConfig,
} from './config/types.js';
export { DEFAULT_RESTART_POLICY, RESTART_BACKOFF_MS, type RestartPolicy } from './lifecycle/backoff.js';
export type { McpEventListener, McpProviderEvent } from './lifecycle/events.js';
export type { ConnectionState } from './lifecycle/connection-types.js';
export {
  type McpSharedRegistry,
  type SharedLease,
  createSharedRegistry,
} from './lifecycle/shared-registry.js';
export { createMcpProvider } from './provider.js';
export type { McpProvider, McpProviderOptions, McpProviderStatus } from './provider-types.js';
export type {
  McpCallOutcome,
  McpPage,
  McpRequestOptions,
  McpResourceInfo,
  McpServerIdentity,
  McpSession,
  McpSessionFactory,
  McpToolDefinition,
} from './session/session.js';
export { definitionHash } from './tools/definition-hash.js';
export { type ToolFilter, createToolFilter } from './tools/filter.js';
export { RESOURCE_TOOL_NAMES } from './tools/resource-tools.js';
export { type ProviderStartOutcome, createMcpProviders, startMcpProviders } from './warmup.js';
