// @toolplane/orchestrator: everything exported here is public API.
export type { AccountingRecord, ToolTotals } from './observe/accounting.js';
export { MAX_SESSION_ID_LENGTH } from './call/check-caller.js';
export type { TimerHost } from './call/deadline-timer.js';
export type { OrchestratorEventName, OrchestratorEvents } from './observe/events.js';
export type { RetryOptions } from './call/execute-provider.js';
export { MAX_BATCH_CALLS } from './internal/batch-tool.js';
export type { CacheOptions } from './middleware/cache.js';
export type { ContextBudgetOptions } from './middleware/context-budget.js';
export type {
  PostToolUseDecision,
  PreToolUseDecision,
  PreToolUseEvent,
  ToolHooks,
} from './middleware/hooks.js';
export type { RateLimitOptions } from './middleware/rate-limit.js';
export type { OutputLimits } from './middleware/size-cap.js';
export type { CallOptions, OrchestratorOptions, ValidationOptions } from './options.js';
export { ToolsOrchestrator, createOrchestrator } from './orchestrator.js';
export type { OrchestratorStats, QueueOptions } from './queue/queue.js';
export type { ProviderOptions } from './registry/registry.js';
export type { ProviderState } from './registry/registry-views.js';
export type { WarmupReport } from './registry/warmup.js';
