import {
  type Middleware,
  type RegisteredTool,
  type ToolContext,
  type ToolResult,
  describeInvalidResult,
  fail,
} from '@toolplane/core';
import { thrownMessage } from '../thrown.js';

/** What a PreToolUse hook sees. */
export interface PreToolUseEvent {
  readonly tool: RegisteredTool;
  readonly args: Readonly<Record<string, unknown>>;
  readonly ctx: ToolContext;
}

/** What a PreToolUse hook may decide: deny, rewrite the arguments, or add context. */
export interface PreToolUseDecision {
  readonly deny?: boolean;
  readonly reason?: string;
  readonly args?: Record<string, unknown>;
  /** Text appended to the result the model sees. */
  readonly additionalContext?: string;
}

/** What a PostToolUse hook may do: add context or replace the result. */
export interface PostToolUseDecision {
  readonly additionalContext?: string;
  readonly result?: ToolResult;
}

/** Pre/PostToolUse hooks (PostToolUse also runs for failures). */
export interface ToolHooks {
  readonly preToolUse?: (
    event: PreToolUseEvent,
  ) => PreToolUseDecision | undefined | Promise<PreToolUseDecision | undefined>;
  readonly postToolUse?: (
    event: PreToolUseEvent & { readonly result: ToolResult },
  ) => PostToolUseDecision | undefined | Promise<PostToolUseDecision | undefined>;
}

function withContext(result: ToolResult, text: string | undefined): ToolResult {
  if (!text) return result;
  const block = { type: 'text' as const, text };
  return result.ok
    ? { ...result, content: [...result.content, block] }
    : { ...result, content: [...(result.content ?? []), block] };
}

/** Runs the hooks around a call; a hook that throws denies the call (fail closed). */
export function hooksMiddleware(hooks: ToolHooks): Middleware {
  return {
    name: 'hooks',
    phase: 'gate',
    async handle(call, next) {
      let current = call;
      let extra: string | undefined;
      if (hooks.preToolUse) {
        let decision: PreToolUseDecision | undefined;
        try {
          decision = await hooks.preToolUse({ tool: call.tool, args: call.args, ctx: call.ctx });
        } catch (error) {
          return fail(
            'DENIED',
            `the PreToolUse hook failed, so ${call.tool.name} was not run: ${thrownMessage(error)}`,
          );
        }
        if (decision?.deny) {
          return fail('DENIED', `denied by a PreToolUse hook: ${decision.reason ?? 'no reason given'}`);
        }
        if (decision?.args !== undefined && decision.args !== null) {
          const args: unknown = decision.args;
          if (typeof args !== 'object' || args === null || Array.isArray(args)) {
            return fail(
              'DENIED',
              `the PreToolUse hook rewrote the arguments of ${call.tool.name} to ${Array.isArray(args) ? 'an array' : typeof args}, not an object, so it was not run; fix the hook`,
            );
          }
          current = { ...call, args: decision.args };
        }
        extra = decision?.additionalContext;
      }
      let result = await next(current);
      if (hooks.postToolUse) {
        try {
          const decision = await hooks.postToolUse({
            tool: current.tool,
            args: current.args,
            ctx: current.ctx,
            result,
          });
          if (decision?.result !== undefined && decision.result !== null) {
            const problem = describeInvalidResult(decision.result);
            if (problem !== undefined) {
              return fail(
                'INTERNAL',
                `the PostToolUse hook replaced the result of ${current.tool.name} with an invalid one (${problem}); fix the hook`,
              );
            }
            result = decision.result;
          }
          result = withContext(result, decision?.additionalContext);
        } catch (error) {
          result = withContext(result, `(PostToolUse hook failed: ${thrownMessage(error)})`);
        }
      }
      return withContext(result, extra);
    },
  };
}
