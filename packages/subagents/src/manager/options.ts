import type { PermissionMode, Principal, ToolContext, ToolServices } from '@toolplane/core';
import type { ToolsOrchestrator } from '@toolplane/orchestrator';
import type { AgentDefinition, AgentToolPolicy } from '../definitions/definition.js';
import type { AgentRegistry } from '../definitions/registry.js';
import type { AgentRunner, AgentStep } from '../runner/runner-types.js';
import type { AnnounceOptions } from './announce-queue.js';
import type { ChildToolLists } from './child-tools.js';
import type { SubagentLimits } from './limits.js';

/** Options of {@link SubagentManager}. */
export interface SubagentManagerOptions {
  /** Where every tool call of every run goes (policy, limits, accounting, cancel apply there). */
  readonly orchestrator: ToolsOrchestrator;
  readonly runner: AgentRunner;
  readonly agents?: AgentRegistry | readonly AgentDefinition[];
  readonly limits?: Partial<SubagentLimits>;
  readonly toolLists?: ChildToolLists;
  readonly announce?: AnnounceOptions;
  /** Pause between a steered child's end and its respawn (default 500 ms). */
  readonly settleMs?: number;
  /** How long a cancelled run may take to stop before it is ended anyway (default 5 000 ms). */
  readonly cancelGraceMs?: number;
  /** Handoffs one run may chain (default 3). */
  readonly maxHandoffs?: number;
  /** Told when a run's session ends, to stop what tools keep per session (background shell tasks). */
  readonly onSessionEnd?: (sessionId: string) => void | Promise<void>;
  /** Told every step of every run. */
  readonly onStep?: (step: AgentStep) => void;
  readonly now?: () => number;
}

/** A spawn: which agent, what task, and the call (its session is the parent) that asks. */
export interface SpawnRequest {
  readonly agent: string;
  readonly task: string;
  readonly label?: string;
  /** Run in the background: the result is announced to the parent (default false: the caller waits). */
  readonly background?: boolean;
  readonly parent: ToolContext;
}

/** Options of a root run ({@link SubagentManager.runAgent}), what `toolplane agent run` calls. */
export interface RunAgentOptions {
  readonly task: string;
  /** A definition to run as the root; otherwise `systemPrompt` and `model`. */
  readonly agent?: string;
  readonly systemPrompt?: string;
  readonly model?: string;
  readonly tools?: AgentToolPolicy;
  readonly sessionId?: string;
  readonly principal?: Principal;
  /** Services of the root's calls (approvals...); the orchestrator's when absent. */
  readonly services?: ToolServices;
  readonly mode?: PermissionMode;
  readonly maxIterations?: number;
  readonly signal?: AbortSignal;
  /** Every step of the root and of its descendants, as it happens. */
  readonly onStep?: (step: AgentStep) => void;
}
