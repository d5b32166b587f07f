import type { AgentDefinition, AgentRunner, OpenAIRunnerOptions, SubagentLimits } from '@toolplane/subagents';

/**
 * Subagents on the server: the definitions every tenant gets as `agent__{name}` and
 * `subagents__*` tools, and the model endpoint their runs talk to.
 */
export interface ServerSubagentOptions {
  /** The subagents (name, description, system prompt, model, tool policy...). */
  readonly agents: readonly AgentDefinition[];
  /** An OpenAI-compatible Chat Completions endpoint (`baseUrl`, `model`, `apiKey`...). */
  readonly endpoint?: OpenAIRunnerOptions;
  /** A runner of your own instead of the endpoint's reference runner. */
  readonly runner?: AgentRunner;
  /** The manager's limits (how many, how deep, turns, tokens, seconds). */
  readonly limits?: Partial<SubagentLimits>;
  /** Steer's pause between a task's cancel and its respawn (default 500 ms). */
  readonly settleMs?: number;
}
