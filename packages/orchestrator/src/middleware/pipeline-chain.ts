import { MIDDLEWARE_PHASES, type Middleware, type NextMiddleware, type ToolContext } from '@toolplane/core';
import type { CallState } from '../call/call-state.js';
import { composeMiddleware } from './compose.js';

/** The composed chain of a call and what the app's middleware makes the runner do around it. */
export interface PipelineChain {
  readonly dispatch: NextMiddleware;
  /** Calls race their deadline: app middleware or hooks may hang. */
  readonly raceDeadline: boolean;
  /** App middleware runs after validation: the arguments are checked again before the provider. */
  readonly recheckArgs: boolean;
}

/** Composes the chain (built-ins, the app's middleware, the provider step) for the current middleware. */
export function pipelineChain(deps: {
  readonly builtins: readonly Middleware[];
  readonly hooks: Middleware | undefined;
  readonly middleware: readonly Middleware[];
  readonly terminal: NextMiddleware;
  readonly validation: boolean;
  readonly stateOf: (ctx: ToolContext) => CallState | undefined;
}): PipelineChain {
  const { builtins, hooks, middleware, terminal } = deps;
  const raceDeadline = hooks !== undefined || middleware.some((each) => each.handle);
  const validated = MIDDLEWARE_PHASES.indexOf('validate');
  const recheckArgs =
    deps.validation &&
    middleware.some((each) => each.handle && MIDDLEWARE_PHASES.indexOf(each.phase) >= validated);
  if (!raceDeadline)
    return { dispatch: composeMiddleware(builtins, middleware, terminal), raceDeadline, recheckArgs };
  // middleware and hooks that see a result keep it from a cancel (CallState.cancel)
  const dispatch = composeMiddleware(builtins, middleware, terminal, {
    observers: new Set(hooks ? [hooks] : []),
    watch: (call) => {
      const state = deps.stateOf(call.ctx);
      // a next() made after the call ended runs nothing and says so itself
      if (!state || state.outcome) return undefined;
      return (result) => {
        // one made in time that settles after the call ended (a middleware below it still ran
        // at the deadline): its middleware is told how the call ended, as everyone else was
        if (state.outcome) return state.outcome;
        state.answered = true;
        return result;
      };
    },
  });
  return { dispatch, raceDeadline, recheckArgs };
}
