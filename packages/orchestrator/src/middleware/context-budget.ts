import { type Middleware, type ToolContext, contentBytes, fail } from '@toolplane/core';
import type { CallState } from '../call/call-state.js';

/** A per-session budget of output tokens the model can still take. */
export interface ContextBudgetOptions {
  readonly maxTokensPerSession: number;
  /** Bytes per token for the estimate (default 4). */
  readonly bytesPerToken?: number;
  /**
   * Sessions remembered at most (default 10,000): past it, the one that used the budget least
   * recently is forgotten (its count starts again from 0), as `endSession()` does. Without a
   * bound a host that never ends its sessions kept one entry per session for good.
   */
  readonly maxSessions?: number;
}

const DEFAULT_MAX_SESSIONS = 10_000;

/**
 * Tracks what each session has received and refuses an output that would not fit. Output of a
 * call that then ends cut short (a middleware outside the budget still ran at its deadline) is
 * given back: the model never got it.
 */
export function contextBudgetMiddleware(
  options: ContextBudgetOptions,
  stateOf: (ctx: ToolContext) => CallState | undefined,
): Middleware & {
  used(sessionId: string): number;
  reset(sessionId: string): void;
} {
  const used = new Map<string, number>();
  const bytesPerToken = options.bytesPerToken ?? 4;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  // a Map keeps insertion order: set after delete puts the session last (most recent)
  const count = (sessionId: string, tokens: number): void => {
    used.delete(sessionId);
    if (tokens <= 0) return;
    used.set(sessionId, tokens);
    if (used.size > maxSessions) {
      const oldest = used.keys().next().value;
      if (oldest !== undefined) used.delete(oldest);
    }
  };
  const giveBack = (sessionId: string, tokens: number): void => {
    count(sessionId, (used.get(sessionId) ?? 0) - tokens);
  };
  return {
    name: 'context-budget',
    phase: 'output',
    used: (sessionId) => used.get(sessionId) ?? 0,
    reset: (sessionId) => void used.delete(sessionId),
    async handle(call, next) {
      const result = await next(call);
      const content = result.content ?? [];
      const tokens = Math.ceil(contentBytes(content) / bytesPerToken);
      const sessionId = call.ctx.session.id;
      const spent = used.get(sessionId) ?? 0;
      const remaining = options.maxTokensPerSession - spent;
      if (tokens > remaining) {
        return fail(
          'BUDGET_EXCEEDED',
          `the output of ${call.tool.name} (~${tokens} tokens) does not fit the ${Math.max(0, remaining)} tokens left in this session's context budget; ask for less (a narrower query, offset/limit)`,
          { details: { tokens, remaining: Math.max(0, remaining) } },
        );
      }
      count(sessionId, spent + tokens);
      if (tokens > 0) stateOf(call.ctx)?.onCutShort(() => giveBack(sessionId, tokens));
      return result;
    },
  };
}
