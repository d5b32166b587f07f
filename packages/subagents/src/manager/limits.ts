import { ToolError } from '@toolplane/core';

/** The limits every spawn path goes through. Each is configurable. */
export interface SubagentLimits {
  /** Subagents spawning or running at once, across all parents (default 8). */
  readonly maxConcurrent: number;
  /** Deepest nesting: a session at this depth is a leaf and cannot spawn (default 1). */
  readonly maxSpawnDepth: number;
  /** Subagents spawning or running at once under one parent session (default 5). */
  readonly maxChildrenPerAgent: number;
  /** Model turns of one subagent run (default 20). */
  readonly maxIterations: number;
  /** Model tokens one subagent may use, its own descendants' included (default 200 000). */
  readonly maxTokensPerChild: number;
  /** Wall time of one subagent run, in ms (default 600 000). */
  readonly maxWallTimeMs: number;
  /** An ended subagent leaves `list` after this long, in ms (default 3 600 000: 60 min). */
  readonly archiveAfterMs: number;
}

/** The defaults of design document 002, plus the per-child budgets. */
export const DEFAULT_LIMITS: SubagentLimits = Object.freeze({
  maxConcurrent: 8,
  maxSpawnDepth: 1,
  maxChildrenPerAgent: 5,
  maxIterations: 20,
  maxTokensPerChild: 200_000,
  maxWallTimeMs: 600_000,
  archiveAfterMs: 3_600_000,
});

/** Which limit refused a spawn (the `details.limit` of the refusal). */
export type SubagentLimitName = keyof SubagentLimits | 'cycle' | 'unknownAgent';

/** The limits with defaults filled in; `CONFIG_INVALID` naming a value that is not a positive integer. */
export function resolveLimits(given: Partial<SubagentLimits> = {}): SubagentLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof SubagentLimits)[]) {
    const value = given[key];
    if (value === undefined) continue;
    if (!(Number.isInteger(value) && value >= 1)) {
      throw new ToolError(
        'CONFIG_INVALID',
        `limits.${key} must be a whole number of at least 1; got ${String(value)}`,
      );
    }
    (limits as Record<string, number>)[key] = value;
  }
  return Object.freeze(limits);
}

/** The limits in one sentence, for the spawn tool's description. */
export function describeLimits(limits: SubagentLimits): string {
  return (
    `Limits: at most ${limits.maxConcurrent} subagents running at once in all and ${limits.maxChildrenPerAgent} per parent; ` +
    `nesting depth ${limits.maxSpawnDepth} (a subagent at depth ${limits.maxSpawnDepth} cannot spawn); an agent never spawns itself or an ancestor; ` +
    `each subagent gets ${limits.maxIterations} model turns, ${limits.maxTokensPerChild} tokens and ${Math.round(limits.maxWallTimeMs / 1000)} s. ` +
    'A refusal names the limit that was hit.'
  );
}

/** What the admission check reads about the spawn it judges. */
export interface AdmissionFacts {
  readonly agent: string;
  readonly known: boolean;
  /** Depth of the parent session (the child runs at depth + 1). */
  readonly parentDepth: number;
  /** Agent names from the root to the parent, the parent's own included. */
  readonly ancestors: readonly string[];
  readonly runningInAll: number;
  readonly runningUnderParent: number;
}

function refuse(limit: SubagentLimitName, value: number | string, message: string): ToolError {
  return new ToolError('DENIED', message, { retryable: false, details: { limit, value } });
}

/**
 * The one admission check every spawn path (`agent__{name}`, spawn, run, steer's respawn, a
 * handoff) goes through. Throws a `DENIED` `ToolError` whose message and `details.limit` say
 * which limit was hit.
 */
export function admit(limits: SubagentLimits, facts: AdmissionFacts): void {
  if (!facts.known) {
    throw refuse(
      'unknownAgent',
      facts.agent,
      `there is no subagent named "${facts.agent.slice(0, 100)}"; list the agent__ tools for the names`,
    );
  }
  const depth = facts.parentDepth + 1;
  if (depth > limits.maxSpawnDepth) {
    throw refuse(
      'maxSpawnDepth',
      limits.maxSpawnDepth,
      `subagent limit maxSpawnDepth (${limits.maxSpawnDepth}) reached: a session at depth ${facts.parentDepth} cannot spawn; do the work yourself`,
    );
  }
  if (facts.ancestors.includes(facts.agent)) {
    throw refuse(
      'cycle',
      [...facts.ancestors, facts.agent].join(' > '),
      `spawning "${facts.agent}" would make a cycle (${[...facts.ancestors, facts.agent].join(' > ')}); an agent never spawns itself or an ancestor`,
    );
  }
  if (facts.runningInAll >= limits.maxConcurrent) {
    throw refuse(
      'maxConcurrent',
      limits.maxConcurrent,
      `subagent limit maxConcurrent (${limits.maxConcurrent}) reached: ${facts.runningInAll} subagents are running; wait for one to finish or cancel one`,
    );
  }
  if (facts.runningUnderParent >= limits.maxChildrenPerAgent) {
    throw refuse(
      'maxChildrenPerAgent',
      limits.maxChildrenPerAgent,
      `subagent limit maxChildrenPerAgent (${limits.maxChildrenPerAgent}) reached: this agent has ${facts.runningUnderParent} subagents running; wait for one or cancel one`,
    );
  }
}
