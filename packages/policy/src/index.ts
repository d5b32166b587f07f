// @toolplane/policy: everything exported here is public API.
export { type AllowList, type AllowListData, type AllowListOptions, createAllowList } from './allow-list.js';
export { createCallbackApprovalChannel } from './approvals/callback-channel.js';
export { type HttpApprovalOptions, createHttpApprovalChannel } from './approvals/http-channel.js';
export { DEFAULT_APPROVAL_TIMEOUT_MS, type ApprovalOutcome, runApproval } from './approvals/run-approval.js';
export { type TerminalApprovalOptions, createTerminalApprovalChannel } from './approvals/terminal-channel.js';
export { APPROVAL_REPROMPT, approvalAnswer, approvalQuestion } from './approvals/terminal-question.js';
export {
  type CommandCheck,
  type CommandReasonCode,
  type CommandVerdict,
  type CompiledCommandRules,
  checkCommandLine,
} from './command-check.js';
export { type CommandPattern, type PatternMatch, compileCommandPattern } from './command-pattern.js';
export type {
  AgentPolicy,
  CommandRulesConfig,
  PolicyConfig,
  ProviderPolicy,
  SubagentPolicy,
  ToolRef,
} from './config.js';
export type { DecisionSource, PolicyDecision } from './decision.js';
export type { Explanation } from './explain.js';
export { type GateEvent, type PolicyMiddlewareOptions, policyMiddleware } from './middleware.js';
export { PERMISSION_MODES, stricterMode } from './modes.js';
export { TOOL_PERMISSIONS, type ToolPermission, requiredPermissions } from './permissions.js';
export {
  type Pin,
  type PinState,
  type PinStore,
  type PinStoreOptions,
  createPinStore,
  definitionHash,
} from './pin-store.js';
export { PIPELINE_STEPS, type PipelineStep, type StepRecord } from './pipeline-steps.js';
export { createPolicy } from './policy.js';
export type { Policy, PolicyOptions, ShadowEvent } from './policy-types.js';
export { BUILTIN_PROFILES, SUBAGENT_DENY, SUBAGENT_LEAF_DENY } from './profiles.js';
export {
  type RateLimitMiddlewareOptions,
  type RateLimiter,
  type RateLimiterOptions,
  createRateLimiter,
  rateLimitMiddleware,
} from './rate-limit.js';
export type {
  AnalyzeOptions,
  CommandLineAnalysis,
  Finding,
  FindingCategory,
  ProtectedMatch,
  ProtectedPaths,
  ShellWord,
  SimpleCommand,
} from './shell/index.js';
export {
  DEFAULT_PROTECTED_PATHS,
  analyzeCommandLine,
  compileProtectedPaths,
  loadShellParser,
  normalizeCommandName,
} from './shell/index.js';
