import { type ToolContext, type ToolResult, fail } from '@toolplane/core';
import { type AdmittedCall, admitCall } from './call-admission.js';
import { createCallContext } from './call-context.js';
import { takenIdMessage } from './call-ids.js';
import { CallState } from './call-state.js';
import { contextFields, progressReporter } from './call-values.js';
import type { CallsInFlight } from './calls-in-flight.js';
import { type CallerAbort, callerAbort } from './follow-caller.js';
import { recordedSessionId } from './check-caller.js';
import type { EventHub } from '../observe/events.js';
import type { CallOptions, OrchestratorOptions } from '../options.js';
import type { ToolRegistry } from '../registry/registry.js';

/** The global timeout when the options set none. */
export const DEFAULT_TIMEOUT_MS = 300_000;

/** A call admitted and ready to run: nothing of it is in flight yet. */
export interface PreparedCall {
  readonly admitted: AdmittedCall;
  readonly state: CallState;
  readonly ctx: ToolContext;
  readonly sessionId: string;
  /** Whether the caller chose the id (held while the call runs). */
  readonly chosenId: boolean;
  readonly deadline: number;
  /** How the caller cancels the call (its `signal` or `onAbort`), when it can. */
  readonly caller: CallerAbort | undefined;
}

/** A call refused before it started: what to record it under, and its result. */
export interface RefusedCall {
  readonly tool: string;
  readonly callId: string;
  readonly sessionId: string;
  readonly refusal: ToolResult;
  readonly totalsKey?: string;
}

/** What preparing a call reads from the orchestrator. */
export interface PrepareDeps {
  readonly options: OrchestratorOptions;
  readonly events: EventHub;
  readonly registry: ToolRegistry;
  readonly calls: CallsInFlight;
  readonly closed: boolean;
}

/**
 * Everything that reads the caller's options (which may throw, from a getter or a Proxy):
 * admission, the call's id, state and context. Starts and holds nothing; a call refused here
 * comes back as a {@link RefusedCall} to be recorded.
 */
export function prepareCall(
  deps: PrepareDeps,
  name: string,
  args: unknown,
  options: CallOptions,
  startedAt: number,
): PreparedCall | RefusedCall {
  // options that are not an object (or a callId that is not one) fail in admitCall below
  const given: CallOptions = typeof options === 'object' && options !== null ? options : {};
  const picked = deps.calls.pickId(given.callId);
  const callId = picked.callId;
  const sessionId = recordedSessionId(given.session);
  if (deps.closed) {
    // retrying cannot help: a closed orchestrator runs nothing again
    const refusal = fail(
      'PROVIDER_UNAVAILABLE',
      'the orchestrator is closed; create a new one to call tools',
      {
        retryable: false,
      },
    );
    return { tool: name, callId, sessionId, refusal };
  }
  const admitted = admitCall(
    deps.registry,
    name,
    args,
    options,
    deps.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  );
  if ('result' in admitted) {
    const { tool, result, totalsKey } = admitted;
    return { tool, callId, sessionId, refusal: result, totalsKey };
  }
  const { route, timeoutMs } = admitted;
  if (picked.taken !== undefined) {
    const refusal = fail('INVALID_ARGUMENTS', takenIdMessage(picked.taken, route.name));
    return { tool: route.name, callId, sessionId, refusal };
  }
  const state = new CallState(route, callId, options.priority ?? 0);
  const deadline = startedAt + timeoutMs;
  const progress = progressReporter(deps.events, state, sessionId, options.progress);
  const ctx = createCallContext(
    state,
    callId,
    contextFields(options, admitted.principal, route.name, sessionId, deps.options.services, progress),
    deadline,
  );
  return { admitted, state, ctx, sessionId, chosenId: picked.chosen, deadline, caller: callerAbort(options) };
}
