import type { JsonSchema, ToolFailureInfo, ToolResult, ToolSpec } from '@toolplane/core';
import type { ReportFormat } from '../definitions/definition.js';

/** Version of the runner contract; bumped when it changes incompatibly. */
export const RUNNER_SPEC_VERSION = 'v1';

/** Tokens a model spent, as the endpoint reported them. */
export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

/** What an agent delivers when it ends (`agent__final_report`). */
export interface FinalReport {
  readonly status: 'success' | 'failure' | 'partial';
  readonly format: ReportFormat;
  /** The report text (all formats but `json`). */
  readonly content?: string;
  /** The report as JSON (`json` format), valid against the definition's schema. */
  readonly contentJson?: unknown;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** When the report was made (epoch ms). */
  readonly ts: number;
}

/** The three-condition progress report of `agent__task_status`. */
export interface TaskStatus {
  readonly status: 'starting' | 'in-progress' | 'completed';
  readonly done: string;
  readonly pending: string;
  readonly now: string;
  readonly readyForFinalReport: boolean;
  readonly needToRunMoreTools: boolean;
}

/** A result a child announced to its parent after an async spawn. */
export interface Announcement {
  readonly childId: string;
  readonly agent: string;
  readonly status: 'completed' | 'failed' | 'cancelled';
  readonly report?: FinalReport;
  readonly error?: ToolFailureInfo;
}

/** Where a running agent hears about the children it spawned in the background. */
export interface AgentInbox {
  /** Children of this run still running (their results are still to come). */
  pending(): number;
  /** Announcements delivered and not yet taken, oldest first. */
  take(): Announcement[];
  /** Resolves with the next batch (at once when one is waiting); rejects when `signal` aborts. */
  next(signal: AbortSignal): Promise<Announcement[]>;
}

/** What happens in a run, as it happens: what a CLI prints. Names are noun then verb. */
export type AgentStepEvent =
  | { readonly type: 'run-started'; readonly task: string; readonly model?: string }
  | { readonly type: 'model-requested'; readonly iteration: number }
  | { readonly type: 'text-streamed'; readonly text: string }
  | {
      readonly type: 'message-received';
      readonly text: string;
      readonly toolCalls: readonly { readonly id: string; readonly name: string }[];
      readonly usage?: TokenUsage;
    }
  | { readonly type: 'tool-started'; readonly id: string; readonly tool: string; readonly args: unknown }
  | {
      readonly type: 'tool-finished';
      readonly id: string;
      readonly tool: string;
      readonly ok: boolean;
      readonly text: string;
      readonly error?: ToolFailureInfo;
    }
  | { readonly type: 'status-reported'; readonly status: TaskStatus }
  | { readonly type: 'announcements-delivered'; readonly announcements: readonly Announcement[] }
  | {
      readonly type: 'child-spawned';
      readonly childId: string;
      /** The child's agent (the step's own `agent` is the parent's). */
      readonly childAgent: string;
      readonly task: string;
    }
  | {
      readonly type: 'child-ended';
      readonly childId: string;
      /** The child's agent (the step's own `agent` is the parent's). */
      readonly childAgent: string;
      readonly status: 'completed' | 'failed' | 'cancelled';
      readonly error?: ToolFailureInfo;
    }
  | {
      readonly type: 'run-ended';
      readonly status: 'completed' | 'failed' | 'cancelled';
      readonly report?: FinalReport;
      readonly error?: ToolFailureInfo;
    };

/** A step event with the run it belongs to (children's events reach the root's listener too). */
export type AgentStep = AgentStepEvent & {
  /** The run's id (a child's id, or the root run's). */
  readonly runId: string;
  readonly agent: string;
  readonly depth: number;
};

/** Everything one run needs; the manager builds it, a runner only reads it. */
export interface AgentRunRequest {
  readonly runId: string;
  readonly agent: string;
  readonly depth: number;
  readonly systemPrompt: string;
  /** The first user message. */
  readonly task: string;
  /** Model id; the runner's default when absent. */
  readonly model?: string;
  /** The tools this run may call (public names), not counting the runner's own tools. */
  readonly tools: readonly ToolSpec[];
  readonly maxIterations: number;
  /** Aborts on cancel, steer, budget or the parent's end; pass it to every request. */
  readonly signal: AbortSignal;
  /** The report required at the end. */
  readonly report: { readonly format: ReportFormat; readonly schema?: JsonSchema };
  /** Offer `agent__task_status` (default true). */
  readonly taskStatus?: boolean;
  /** Agents `router__handoff-to` may name; no tool when absent or empty. */
  readonly handoff?: {
    readonly destinations: readonly { readonly name: string; readonly description: string }[];
  };
  /** Runs one tool call through the orchestrator (policy, limits, accounting and cancel apply). */
  callTool(name: string, args: unknown): Promise<ToolResult>;
  /** Announcements of children spawned in the background. */
  readonly inbox?: AgentInbox;
  onStep?(event: AgentStepEvent): void;
  /** Told the tokens of every model response (budgets are enforced from it). */
  onUsage?(usage: TokenUsage): void;
}

/** How a run ended when it did not fail. */
export interface AgentRunResult {
  readonly report: FinalReport;
  readonly iterations: number;
  readonly usage: TokenUsage;
  /** Set when the agent handed the task on with `router__handoff-to`. */
  readonly handoff?: { readonly agent: string; readonly message?: string };
}

/**
 * An agent loop. `run` resolves with a report or rejects with a `ToolError` (`CANCELLED`,
 * `TIMEOUT`, `BUDGET_EXCEEDED`, `PROVIDER_UNAVAILABLE`, `EXECUTION_FAILED`).
 *
 * @example
 * const echo: AgentRunner = {
 *   specificationVersion: 'v1',
 *   async run(request) {
 *     return { report: { status: 'success', format: 'text', content: request.task, ts: Date.now() },
 *       iterations: 0, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } };
 *   },
 * };
 */
export interface AgentRunner {
  readonly specificationVersion: typeof RUNNER_SPEC_VERSION;
  run(request: AgentRunRequest): Promise<AgentRunResult>;
}
