import { type Middleware, type ToolContext, contentBytes, fail } from '@toolplane/core';
import type { CallState } from '../call-state.js';

/** A per-session budget of output tokens the model can still take. */
export interface ContextBudgetOptions {
  readonly maxTokensPerSession: number;
  /** Bytes per token for the estimate (default 4). */
  readonly bytesPerToken?: number;
}

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
  const giveBack = (sessionId: string, tokens: number): void => {
    const left = (used.get(sessionId) ?? 0) - tokens;
    if (left > 0) used.set(sessionId, left);
    else used.delete(sessionId);
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
      used.set(sessionId, spent + tokens);
      if (tokens > 0) stateOf(call.ctx)?.onCutShort(() => giveBack(sessionId, tokens));
      return result;
    },
  };
}
