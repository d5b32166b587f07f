import {
  type Middleware,
  type RegisteredTool,
  type ToolCall,
  type ToolContext,
  type ToolError,
  type ToolResult,
  fail,
} from '@toolplane/core';
import type { CallState } from '../call/call-state.js';
import { jsonBytes } from '../call/call-values.js';
import { invalidResultProblem } from '../call/check-result.js';
import { thrownMessage } from '../call/thrown.js';

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

/**
 * Runs the hooks around a call; a PreToolUse hook that throws denies the call (fail closed). A
 * PostToolUse hook still running when the call is stopped (its deadline, `close()`) is not
 * waited for: the call ends with the result the hook was given, with a note, so the caller and
 * everyone who saw that result agree on it (see {@link postToolUse}).
 */
export function hooksMiddleware(
  hooks: ToolHooks,
  stateOf: (ctx: ToolContext) => CallState | undefined,
): Middleware {
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
        // rewritten, or changed in place: they go on to the cache, logs and providers as JSON
        const unfit = jsonBytes(current.args);
        if (typeof unfit === 'string') {
          return fail(
            'DENIED',
            `the PreToolUse hook left the arguments of ${call.tool.name} as something JSON cannot carry (${unfit.replace(/^must be JSON data; /, '')}), so it was not run; fix the hook`,
          );
        }
        extra = decision?.additionalContext;
      }
      const result = await next(current);
      const post = hooks.postToolUse;
      if (!post) return withContext(result, extra);
      return postToolUse(post, current, result, extra, stateOf(current.ctx));
    },
  };
}

/**
 * Runs the PostToolUse hook on `result`. The provider has answered and that answer is on its way
 * back (a cancel keeps it), so a stop while the hook runs (the deadline: a hung audit log must
 * not hang the call; `close()`) ends the call with `result` and a note instead of `TIMEOUT`: the
 * tool did run, and the hook, the context budget and the cache saw it succeed or fail as it did.
 * The hook's decision, when it comes later, is not applied.
 */
async function postToolUse(
  hook: NonNullable<ToolHooks['postToolUse']>,
  call: ToolCall,
  given: ToolResult,
  extra: string | undefined,
  state: CallState | undefined,
): Promise<ToolResult> {
  let result = given;
  let kept: ToolResult | undefined;
  let cut: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (cut = resolve));
  const keep = (reason: ToolError): ToolResult => {
    kept = withContext(withContext(given, lateNote(reason)), extra);
    cut?.();
    return kept;
  };
  const previous = state?.answerOnStop;
  if (state && !state.stopReason) state.answerOnStop = keep;
  try {
    const decision = await Promise.race([
      hook({ tool: call.tool, args: call.args, ctx: call.ctx, result: given }),
      stopped,
    ]);
    // stopped meanwhile: outer middleware gets what the caller got
    if (kept) return kept;
    if (decision?.result !== undefined && decision.result !== null) {
      const problem = invalidResultProblem(decision.result);
      if (problem !== undefined) {
        return fail(
          'INTERNAL',
          `the PostToolUse hook replaced the result of ${call.tool.name} with an invalid one (${problem}); fix the hook`,
        );
      }
      result = decision.result;
    }
    result = withContext(result, decision?.additionalContext);
  } catch (error) {
    result = withContext(result, `(PostToolUse hook failed: ${thrownMessage(error)})`);
  } finally {
    if (state && state.answerOnStop === keep) state.answerOnStop = previous;
  }
  // the hook may have changed the result it was given in place
  const broken = invalidResultProblem(result);
  if (broken !== undefined) {
    return fail(
      'INTERNAL',
      `the PostToolUse hook left the result of ${call.tool.name} invalid (${broken}); fix the hook`,
    );
  }
  return withContext(result, extra);
}

/** The note on a result whose PostToolUse hook had not finished when the call was stopped. */
function lateNote(reason: ToolError): string {
  const timeoutMs = (reason.details as { timeoutMs?: unknown } | undefined)?.timeoutMs;
  const when =
    reason.code === 'TIMEOUT' && typeof timeoutMs === 'number'
      ? `did not finish within the call's ${timeoutMs} ms timeout`
      : `had not finished when the call was stopped (${reason.message})`;
  return `(the PostToolUse hook ${when}; the result is returned without its decision)`;
}
