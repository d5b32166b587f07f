// @toolplane/mcp-provider: everything exported here is public API.
export { checkElicitationAnswer } from './client-features/elicitation-answer.js';
export { ELICITATION_LIMITS, elicitationFields } from './client-features/elicitation-fields.js';
export { type OpenAiSamplerOptions, createOpenAiSampler } from './client-features/openai-sampler.js';
export { type McpRootFolder, type McpRoots, createMcpRoots } from './client-features/roots.js';
export { SAMPLING_DEFAULTS } from './client-features/sampling-policy.js';
export type {
  ElicitationAnswer,
  ElicitationChannel,
  ElicitationField,
  ElicitationFormRequest,
  ElicitationOption,
  ElicitationRequest,
  ElicitationUrlRequest,
  ElicitationValue,
  McpRoot,
  McpRootsSource,
  SamplingHandler,
  SamplingMessage,
  SamplingOptions,
  SamplingRequest,
  SamplingResult,
} from './client-features/types.js';
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
  type McpStdioServerInput,
  type McpServerInput,
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
export {
  AUTH_REQUIRED,
  type McpAuth,
  type McpAuthOptions,
  type McpAuthRecord,
  type AuthRequiredFailure,
  type McpAuthRedirect,
  type McpAuthState,
  type McpLoginBeginOptions,
  type McpLoginCompleteOptions,
  type McpLoginOptions,
  type McpLoginResult,
  type McpLoginStart,
  type McpPendingLogin,
  type McpStoredTokens,
  type McpTokenStore,
  authRequiredError,
  beginMcpLogin,
  completeMcpLogin,
  createFileTokenStore,
  createMcpAuth,
  createMemoryTokenStore,
  defaultTokenFilePath,
  isAuthRequired,
  loginMcpServer,
  logoutMcpServer,
  mcpAuthStatus,
} from './auth/index.js';
export {
  PASSTHROUGH_METHODS,
  type McpPassthrough,
  type McpUpstream,
  type PassthroughNotification,
  type PassthroughRequestOptions,
} from './passthrough/types.js';
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
