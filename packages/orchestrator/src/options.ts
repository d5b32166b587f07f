import type { ToolContextInit, ToolServices } from '@toolplane/core';
import type { TimerHost } from './call/deadline-timer.js';
import type { RetryOptions } from './call/execute-provider.js';
import type { CacheOptions } from './middleware/cache.js';
import type { ContextBudgetOptions } from './middleware/context-budget.js';
import type { ToolHooks } from './middleware/hooks.js';
import type { RateLimitOptions } from './middleware/rate-limit.js';
import type { OutputLimits } from './middleware/size-cap.js';
import type { QueueOptions } from './queue/queue.js';

/** Options of {@link createOrchestrator}. Everything has a default. */
export interface OrchestratorOptions {
  /**
   * Deadline of a call when neither the call, the tool nor its provider sets one
   * (default 300 000 ms). The deadline covers the whole call: queue wait, retries, execution.
   */
  readonly timeoutMs?: number;
  /** Named queues and their concurrency. Tools name their queue in their spec or registration. */
  readonly queues?: Readonly<Record<string, QueueOptions>>;
  /** Concurrency of the `default` queue, used by tools that name no queue (default unlimited). */
  readonly maxConcurrency?: number;
  /**
   * Argument validation against input schemas (default on); `{ maxSchemaNodes }` raises or
   * lowers core's bound on a schema's size (5,000 objects and arrays), beyond which a schema
   * is reported once and its tool runs unvalidated.
   */
  readonly validation?: boolean | ValidationOptions;
  /** Response cache for tools with a TTL (default on); `false` turns it off. */
  readonly cache?: CacheOptions | false;
  /** Size cap with stored overflow (default 64 KiB); `false` turns it off. */
  readonly output?: (OutputLimits & { readonly dir?: string; readonly ttlMs?: number }) | false;
  /** A per-session budget of output tokens. */
  readonly contextBudget?: ContextBudgetOptions;
  /** A per-session token bucket. */
  readonly rateLimit?: RateLimitOptions;
  readonly hooks?: ToolHooks;
  /** Retries of read-only/idempotent tools on retryable failures (default 2 attempts). */
  readonly retry?: RetryOptions;
  /** Services handed to every tool unless the call brings its own. */
  readonly services?: ToolServices;
  /** Providers started at once by `warmup()` (default 4). */
  readonly warmupConcurrency?: number;
  /** How long a provider's `start()` may take (default 120 000 ms). */
  readonly startTimeoutMs?: number;
  /** How long `close()` waits for each provider's and middleware's `close()` (default 10 000 ms). */
  readonly closeTimeoutMs?: number;
  /** Accounting records kept (default 1000). */
  readonly accountingCapacity?: number;
  /** Keep an operation tree per session (default on). */
  readonly operationTree?: boolean;
  /** The internal `batch` and `tool_output` tools (default on). */
  readonly internalTools?: boolean;
  /** Clock and timers, for tests. */
  readonly timers?: TimerHost;
}

/** Per-call options: a partial context plus scheduling. */
export type CallOptions = ToolContextInit & {
  /** Deadline of this call in ms (wins over tool, provider and global). */
  readonly timeoutMs?: number;
  /** Higher runs first when the queue is full (default 0). */
  readonly priority?: number;
};

/** Options of argument validation. */
export interface ValidationOptions {
  /** Objects and arrays an input schema may hold (core's `DEFAULT_MAX_SCHEMA_NODES`, 5,000, by default); `Infinity` for no bound. */
  readonly maxSchemaNodes?: number;
}
