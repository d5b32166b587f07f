import type { TokenUsage } from '../runner/runner-types.js';

/** What a run cost: tokens, tool calls and their latency, model turns, runs (itself and its descendants). */
export interface SubagentUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  modelTurns: number;
  toolCalls: number;
  toolErrors: number;
  toolLatencyMs: number;
  /** Agent runs counted: 1 for a run alone, more with its descendants. */
  runs: number;
}

/** A zeroed usage (runs 1 for a run's own). */
export function emptyUsage(runs = 1): SubagentUsage {
  return {
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    modelTurns: 0,
    toolCalls: 0,
    toolErrors: 0,
    toolLatencyMs: 0,
    runs,
  };
}

/** Adds `delta` into `target`. */
export function addInto(target: SubagentUsage, delta: Partial<SubagentUsage>): void {
  for (const key of Object.keys(delta) as (keyof SubagentUsage)[]) target[key] += delta[key] ?? 0;
}

/** The usage delta of one model answer. */
export function tokenDelta(usage: TokenUsage): Partial<SubagentUsage> {
  return {
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.totalTokens,
  };
}
