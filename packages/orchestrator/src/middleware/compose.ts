import {
  MIDDLEWARE_PHASES,
  type Middleware,
  type NextMiddleware,
  type ToolCall,
  type ToolResult,
  fail,
} from '@toolplane/core';
import { invalidResultProblem } from '../call/check-result.js';
import { failureFrom, isToolError, thrownMessage } from '../call/thrown.js';

/** How the chain tells that a middleware that sees results (the app's, the hooks) got one. */
export interface AnswerWatch {
  /** Built-ins that see results and may take time over them (the hooks). */
  readonly observers: ReadonlySet<Middleware>;
  /**
   * Called when the app's middleware or an observer calls its `next()`: answers what to do with
   * the result once it settles (the result to hand on: how the call ended, when it already has),
   * or undefined to leave it (a `next()` made after the call ended answers for itself).
   */
  readonly watch: (call: ToolCall) => ((result: ToolResult) => ToolResult) | undefined;
}

/**
 * One function for the whole chain: middleware ordered by phase (built-ins first within a
 * phase, then the app's in the order added), outermost first, ending at `terminal`. The app's
 * middleware is guarded: a malformed result (its `structured` included: JSON data, as a
 * provider's must be), or a throw or rejection that is not a `ToolError`,
 * becomes an `INTERNAL` failure naming it (the built-ins, which cannot do that, run unguarded).
 * The `next()` handed to the app's middleware and to `watch.observers` tells `watch.watch`
 * when it settles: once one of them has seen a result, a cancel keeps it.
 */
export function composeMiddleware(
  builtins: readonly Middleware[],
  added: readonly Middleware[],
  terminal: NextMiddleware,
  watch?: AnswerWatch,
): NextMiddleware {
  const ordered: Middleware[] = [];
  for (const phase of MIDDLEWARE_PHASES) {
    for (const middleware of builtins) if (middleware.phase === phase) ordered.push(middleware);
    for (const middleware of added) if (middleware.phase === phase) ordered.push(middleware);
  }
  const own = new Set(builtins);
  let next: NextMiddleware = terminal;
  for (let i = ordered.length - 1; i >= 0; i--) {
    const middleware = ordered[i] as Middleware;
    const handle = middleware.handle;
    if (!handle) continue;
    const below = next;
    const inner =
      watch && (!own.has(middleware) || watch.observers.has(middleware))
        ? (call: ToolCall) => told(below, call, watch)
        : below;
    next = own.has(middleware)
      ? (call: ToolCall) => handle.call(middleware, call, inner)
      : (call: ToolCall) => guarded(middleware, handle, call, inner);
  }
  return next;
}

/** `below(call)`, telling `watch` when it settles with a result. */
function told(below: NextMiddleware, call: ToolCall, watch: AnswerWatch): Promise<ToolResult> {
  const settled = watch.watch(call);
  const pending = below(call);
  return settled ? pending.then(settled) : pending;
}

function guarded(
  middleware: Middleware,
  handle: NonNullable<Middleware['handle']>,
  call: ToolCall,
  next: NextMiddleware,
): Promise<ToolResult> {
  let pending: Promise<ToolResult>;
  try {
    pending = Promise.resolve(handle.call(middleware, call, next));
  } catch (error) {
    return Promise.resolve(thrown(middleware, error));
  }
  return pending.then(
    (result) => {
      const problem = invalidResultProblem(result);
      return problem === undefined ? result : broken(middleware, `returned an invalid result (${problem})`);
    },
    (error: unknown) => thrown(middleware, error),
  );
}

/** A ToolError keeps its code (a middleware may throw `DENIED`); anything else is its bug. */
function thrown(middleware: Middleware, error: unknown): ToolResult {
  if (isToolError(error)) return failureFrom(error);
  return broken(middleware, `threw: ${thrownMessage(error)}`);
}

function broken(middleware: Middleware, what: string): ToolResult {
  return fail(
    'INTERNAL',
    `middleware "${String(middleware.name)}" (${String(middleware.phase)}) ${what}; this is a bug in that middleware, not in the call`,
  );
}
