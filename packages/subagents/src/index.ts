// @toolplane/subagents: everything exported here is public API.
export { createSubagents } from './create-subagents.js';
export type {
  AgentBudgets,
  AgentDefinition,
  AgentToolPolicy,
  ReportFormat,
} from './definitions/definition.js';
export {
  type AgentRegistry,
  RESERVED_AGENT_NAMES,
  checkDefinition,
  createAgentRegistry,
} from './definitions/registry.js';
export type { AnnounceOptions } from './manager/announce-queue.js';
export { AnnounceQueue } from './manager/announce-queue.js';
export type { SubagentApprovalInfo, SubagentApprovalRequest } from './manager/approvals.js';
export { type ChildToolLists, SPAWNING_TOOL_PATTERNS } from './manager/child-tools.js';
export {
  DEFAULT_LIMITS,
  type SubagentLimitName,
  type SubagentLimits,
  describeLimits,
} from './manager/limits.js';
export { SubagentManager } from './manager/manager.js';
export type { RunAgentOptions, SpawnRequest, SubagentManagerOptions } from './manager/options.js';
export type { RunOutcome, SubagentHandle, SubagentInfo, SubagentState } from './manager/records.js';
export type { SubagentUsage } from './manager/usage.js';
export { ACTIONS_NAMESPACE, createActionProvider } from './provider/action-tools.js';
export { AGENT_NAMESPACE, createAgentProvider } from './provider/agent-provider.js';
export {
  FINAL_REPORT_TOOL,
  HANDOFF_TOOL,
  type InternalOutcome,
  TASK_STATUS_TOOL,
  internalToolSpecs,
  interpretInternalCall,
  isReadyToReport,
} from './runner/internal-tools.js';
export { type OpenAIRunnerOptions, createOpenAIRunner } from './runner/openai-runner.js';
export {
  type AgentInbox,
  type AgentRunRequest,
  type AgentRunResult,
  type AgentRunner,
  type AgentStep,
  type AgentStepEvent,
  type Announcement,
  type FinalReport,
  RUNNER_SPEC_VERSION,
  type TaskStatus,
  type TokenUsage,
} from './runner/runner-types.js';
