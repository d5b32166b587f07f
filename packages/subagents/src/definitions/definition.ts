import type { JsonSchema, PermissionMode } from '@toolplane/core';
import type { AgentRunner } from '../runner/runner-types.js';

/** Formats a final report may take; `json` carries `content_json`, the others `content`. */
export type ReportFormat = 'text' | 'markdown' | 'json' | 'sub-agent' | (string & {});

/** Which of the parent's tools a child agent may use (policy tool references). */
export interface AgentToolPolicy {
  /** Tool references the child keeps (`read`, `mcp__github__*`, `group:fs`); absent = all the parent has. */
  readonly allow?: readonly string[];
  /** Tool references the child loses. */
  readonly deny?: readonly string[];
}

/** Per-child budgets a definition may lower (never raise past the manager's). */
export interface AgentBudgets {
  /** Model tokens (prompt + completion, own and descendants'). */
  readonly maxTokens?: number;
  /** Wall time of one run, in ms. */
  readonly maxWallTimeMs?: number;
  /** Model turns of one run. */
  readonly maxIterations?: number;
}

/**
 * A child agent: what it is for, how it is prompted, which model and tools it gets.
 *
 * @example
 * const researcher: AgentDefinition = {
 *   name: 'researcher',
 *   description: 'Finds facts in the repository and reports them with file paths.',
 *   systemPrompt: 'You research. Report with agent__final_report.',
 *   tools: { allow: ['read', 'grep', 'glob'] },
 * };
 */
export interface AgentDefinition {
  /** `[A-Za-z0-9_-]{1,48}`; the tool is `agent__{name}`. */
  readonly name: string;
  /** What the parent's model reads to pick this agent. */
  readonly description: string;
  readonly systemPrompt: string;
  /** Model id sent to the endpoint; the runner's default when absent. */
  readonly model?: string;
  readonly tools?: AgentToolPolicy;
  /** JSON Schema of the `agent__{name}` arguments; absent = `{ task: string, context?: string }`. */
  readonly inputSchema?: JsonSchema;
  /** What the final report must be: its format (default `text`) and, for `json`, a schema. */
  readonly output?: { readonly format?: ReportFormat; readonly schema?: JsonSchema };
  readonly budgets?: AgentBudgets;
  /** Permission mode; a child never runs in a looser mode than its parent. */
  readonly mode?: PermissionMode;
  /** Agents this one may hand the task to with `router__handoff-to`. */
  readonly router?: { readonly destinations: readonly string[] };
  /** Runs this agent with another loop than the manager's runner. */
  readonly runner?: AgentRunner;
}
