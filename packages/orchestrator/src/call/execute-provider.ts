import {
  type CompiledSchema,
  type ToolCall,
  compileSchema,
  formatIssues,
  type ToolResult,
  describeInvalidResult,
  fail,
  failFromError,
  isIdempotent,
  type ToolContext,
} from '@toolplane/core';
import { repairContext } from './call-context.js';
import { contentProblem, structuredProblem } from './check-result.js';
import { shortName } from './short-name.js';
import { providerFailure, thrownMessage } from './thrown.js';
import type { CallState } from './call-state.js';
import type { NamedQueue } from '../queue/queue.js';

/** Retry policy for read-only and idempotent tools. */
export interface RetryOptions {
  /** Attempts in all, including the first (default 2; 1 disables retries). */
  readonly maxAttempts?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}

/** What the terminal step needs from the orchestrator. */
export interface ExecuteDeps {
  readonly stateOf: (ctx: ToolContext) => CallState | undefined;
  readonly queueFor: (name: string | undefined) => NamedQueue | undefined;
  readonly now: () => number;
  readonly retry: Required<RetryOptions>;
  /**
   * Whether app middleware runs after validation (it may have changed the arguments since): the
   * arguments are then checked again against the tool's schema before the provider gets them.
   */
  readonly recheckArgs: () => boolean;
}

/**
 * The innermost step of the pipeline: queue slot, provider call, result check, retries for
 * read-only/idempotent tools on retryable failures (never after a timeout or cancel).
 */
export function createProviderStep(deps: ExecuteDeps): (call: ToolCall) => Promise<ToolResult> {
  return function executeWithRetries(call) {
    const state = deps.stateOf(call.ctx);
    if (!state) return Promise.resolve(fail('INTERNAL', `call ${call.ctx.callId} is not in flight`));
    if (state.finished) {
      return Promise.resolve(
        fail(
          'INTERNAL',
          `a middleware called next() for ${state.route.name} after the call had finished; nothing was run. Call next() before returning`,
        ),
      );
    }
    const again = repeatedNext(state);
    if (again) return Promise.resolve(again);
    const rerouted = reroutedTool(state, call);
    if (rerouted) return Promise.resolve(rerouted);
    if (deps.recheckArgs()) {
      const changed = changedArgs(state, call);
      if (changed) return Promise.resolve(changed);
    }
    state.providerStep = 'running';
    const maxAttempts = isIdempotent(state.route.spec) ? deps.retry.maxAttempts : 1;
    return attempt(deps, state, call, maxAttempts);
  };
}

/**
 * The refusal of a second `next()` from a middleware: one while the tool runs, or one after it
 * succeeded (a mutating tool would repeat its effect). One after a failure runs the tool again
 * (an app's own retry).
 */
function repeatedNext(state: CallState): ToolResult | undefined {
  if (state.stopReason || state.providerStep === undefined || state.providerStep === 'failed')
    return undefined;
  const when =
    state.providerStep === 'running' ? 'while the tool was running' : 'after the tool had succeeded';
  return fail(
    'INTERNAL',
    `a middleware called next() for ${state.route.name} again ${when}; the tool was not run again. Call next() once per call (again only after a failure, to retry)`,
  );
}

/**
 * The refusal of a call whose tool a middleware swapped for another (`next({ ...call, tool })`):
 * the provider runs the call's own tool, so validation and the cache would have used the other's
 * schema and key (its answer cached as the other tool's). A copy of the same tool is fine.
 */
function reroutedTool(state: CallState, call: ToolCall): ToolResult | undefined {
  const name: unknown = call.tool?.name;
  if (name === state.route.name) return undefined;
  const shown = typeof name === 'string' ? shortName(name) : `(${typeof name})`;
  return fail(
    'INTERNAL',
    `a middleware handed next() the tool ${shown} for a call to ${state.route.name}; middleware cannot change the tool a call runs, so nothing was run. Call next() with the call's own tool (call.tool)`,
  );
}

/** The refusal of arguments a middleware changed after validation so that they fail the schema. */
function changedArgs(state: CallState, call: ToolCall): ToolResult | undefined {
  let compiled: CompiledSchema;
  try {
    compiled = compileSchema(state.route.spec.inputSchema);
  } catch {
    // reported when validation first met it; the tool runs unvalidated
    return undefined;
  }
  const outcome = compiled.validate(call.args);
  if (outcome.valid) return undefined;
  return fail(
    'INTERNAL',
    `a middleware after validation changed the arguments of ${state.route.name} so that they no longer match its input schema (${formatIssues(outcome)}); the tool was not run. This is a bug in that middleware, not in the call`,
  );
}

/** Whether a failed attempt gets another one (never after a stop, a timeout or a cancel). */
function retries(state: CallState, result: ToolResult, maxAttempts: number): boolean {
  if (result.ok || state.stopReason || state.attempts >= maxAttempts) return false;
  const { code, retryable } = result.error;
  return retryable === true && code !== 'TIMEOUT' && code !== 'CANCELLED';
}

async function retryAfter(
  deps: ExecuteDeps,
  state: CallState,
  call: ToolCall,
  maxAttempts: number,
): Promise<ToolResult> {
  const delay = Math.min(deps.retry.maxDelayMs, deps.retry.baseDelayMs * 2 ** (state.attempts - 1));
  await sleep(delay * (0.5 + Math.random() / 2), state);
  // stopped during the back-off: the call ends as the stop says (TIMEOUT, CANCELLED), as it would running
  if (state.stopReason) return failFromError(state.stopReason);
  return attempt(deps, state, call, maxAttempts);
}

function attempt(
  deps: ExecuteDeps,
  state: CallState,
  call: ToolCall,
  maxAttempts: number,
): Promise<ToolResult> {
  state.attempts++;
  const queue = deps.queueFor(state.route.queue);
  if (!queue || queue.tryAcquire()) return run(deps, state, call, queue, maxAttempts);
  const waitStart = deps.now();
  return queue.acquire(state.priority, state.signal).then(
    () => {
      state.queueWaitMs += deps.now() - waitStart;
      return run(deps, state, call, queue, maxAttempts);
    },
    (error: unknown) => {
      state.queueWaitMs += deps.now() - waitStart;
      return state.stopReason ? failFromError(state.stopReason) : failFromError(error, 'CANCELLED');
    },
  );
}

/**
 * One attempt. Its promise settles with the attempt's result, or, when that failure is retried,
 * follows the retry: a successful call costs no promise step for the retry logic.
 */
function run(
  deps: ExecuteDeps,
  state: CallState,
  call: ToolCall,
  queue: NamedQueue | undefined,
  maxAttempts: number,
): Promise<ToolResult> {
  const { route } = state;
  return new Promise<ToolResult>((resolve) => {
    let settled = false;
    const finish = (result: ToolResult): void => {
      if (settled) return;
      settled = true;
      state.settleAttempt = undefined;
      queue?.release();
      if (retries(state, result, maxAttempts)) {
        resolve(retryAfter(deps, state, call, maxAttempts));
        return;
      }
      // the answer is on its way back: a cancel from now on keeps it
      state.answered = true;
      state.providerStep = result.ok ? 'succeeded' : 'failed';
      resolve(result);
    };
    if (state.stopReason) {
      finish(failFromError(state.stopReason));
      return;
    }
    state.settleAttempt = finish;
    const provider = route.entry.provider.namespace;
    let pending: unknown;
    try {
      pending = route.entry.provider.execute(route.localName, call.args, repairContext(call.ctx, state));
    } catch (error) {
      finish(providerFailure(error, provider, route.name));
      return;
    }
    // a getter or Proxy may throw from here on: this runs inside the executor, where a throw
    // would leave the attempt unsettled and its queue slot held for good
    let then: unknown;
    try {
      then =
        typeof pending === 'object' && pending !== null ? (pending as { then?: unknown }).then : undefined;
    } catch (error) {
      finish(invalidResult(provider, route.name, `it cannot be read: ${thrownMessage(error)}`));
      return;
    }
    if (typeof then === 'function') {
      try {
        (then as Promise<unknown>['then']).call(
          pending,
          (value) => finish(checked(value, provider, route.name)),
          (error: unknown) => finish(providerFailure(error, provider, route.name)),
        );
      } catch (error) {
        finish(providerFailure(error, provider, route.name));
      }
      return;
    }
    finish(checked(pending, provider, route.name));
  });
}

function checked(value: unknown, provider: string, tool: string): ToolResult {
  let problem: string | undefined;
  try {
    problem =
      describeInvalidResult(value) ??
      contentProblem(value as ToolResult) ??
      ((value as ToolResult).ok
        ? structuredProblem((value as ToolResult & { ok: true }).structured)
        : undefined);
  } catch (error) {
    problem = `it cannot be read: ${thrownMessage(error)}`;
  }
  return problem === undefined ? (value as ToolResult) : invalidResult(provider, tool, problem);
}

function invalidResult(provider: string, tool: string, problem: string): ToolResult {
  return fail(
    'INVALID_RESULT',
    `provider "${provider}" returned an invalid result for ${tool} (${problem}); this is a bug in the provider, not in the arguments`,
  );
}

function sleep(ms: number, state: CallState): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      state.settleAttempt = undefined;
      resolve();
    };
    const timer = setTimeout(done, ms);
    // a stop during the back-off ends the wait at once
    state.settleAttempt = done;
  });
}
