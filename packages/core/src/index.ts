// @toolplane/core: everything exported here is public API.
export type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from './approvals.js';
export {
  type AudioContent,
  type ContentBlock,
  type ImageContent,
  type ResourceContent,
  type ResourceLinkContent,
  type TextContent,
  contentBytes,
  contentText,
  textContent,
  utf8Length,
} from './content.js';
export {
  type AbortSource,
  type OpHandle,
  type PermissionMode,
  type ProgressUpdate,
  type SessionInfo,
  type ToolContext,
  type ToolContextInit,
  type ToolServices,
  type TraceInfo,
  createId,
  createToolContext,
  extendContext,
  onAbort,
} from './context.js';
export {
  ERROR_CODES,
  type ToolErrorCode,
  ToolError,
  type ToolErrorOptions,
  errorMessage,
  UNREADABLE_ERROR_MESSAGE,
  isRetryableCode,
} from './errors.js';
export type { ExecProcess, ExecRequest, ExecResult, Executor } from './executor.js';
export type { DirEntry, FileStat, FileSystem } from './filesystem.js';
export { type LocalProviderOptions, createLocalProvider } from './local-provider.js';
export {
  MIDDLEWARE_PHASES,
  type Middleware,
  type MiddlewarePhase,
  type NextMiddleware,
  type RegisteredTool,
  type ToolCall,
  type ToolView,
} from './middleware.js';
export {
  NAMESPACE_SEPARATOR,
  TOOL_NAME_MAX_LENGTH,
  TOOL_NAME_PATTERN,
  allocateToolNames,
  qualifyToolName,
  sanitizeToolName,
  splitToolName,
} from './names.js';
export { type OpNode, createOpNode, formatOpTree } from './op-tree.js';
export type { Principal } from './principal.js';
export { PROVIDER_SPEC_VERSION, type ProviderKind, type ToolProvider } from './provider.js';
export {
  type CallMeta,
  type OverflowHandle,
  type ToolFailure,
  type ToolFailureInfo,
  type ToolResult,
  type ToolReturn,
  type ToolSuccess,
  describeInvalidResult,
  fail,
  failFromError,
  ok,
  toToolResult,
} from './result.js';
export {
  type CompiledSchema,
  type CompileSchemaOptions,
  type InvalidOutcome,
  type ValidationIssue,
  type ValidationOutcome,
  compileSchema,
  formatIssues,
} from './schema-validator.js';
export {
  type JsonSchema,
  RISK_LEVELS,
  type RiskLevel,
  type SideEffect,
  type ToolAnnotations,
  type ToolSpec,
  compareRisk,
  isIdempotent,
  isReadOnly,
  riskOf,
} from './spec.js';
export { DEFAULT_MAX_SCHEMA_NODES } from './schema-size.js';
export { stableStringify } from './stable-json.js';
export { terminalJson, terminalLine, terminalText } from './terminal-text.js';
export { type DefineToolOptions, type Tool, defineTool, zodIssues, zodToJsonSchema } from './tool.js';
export { type RateLimiter, type RateLimiterOptions, createRateLimiter } from './rate-limiter.js';
