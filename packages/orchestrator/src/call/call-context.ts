import type { ToolContext } from '@toolplane/core';
import type { CallState } from './call-state.js';

/** Where a call context keeps its state (an own, enumerable symbol: copied by spread and Object.assign). */
export const CALL_STATE: unique symbol = Symbol('toolplane.callState');

// `signal` is an accessor on a shared prototype: touching `AbortController#signal` costs
// microseconds in Node 20, so it is created only for tools that look at it. `onAbort` lets a
// provider react to cancellation without creating it at all.
const CONTEXT_PROTOTYPE = Object.create(Object.prototype, {
  signal: {
    get(this: { [CALL_STATE]: CallState }): AbortSignal {
      return this[CALL_STATE].signal;
    },
    enumerable: false,
    configurable: false,
  },
  // the call's node in the operation tree, made when a tool first looks (see CallRecord)
  op: {
    get(this: { [CALL_STATE]: CallState }): ToolContext['op'] {
      return this[CALL_STATE].opRecord?.opHandle();
    },
    // a middleware that gives a copy its own `op` (extendContext) sets an own property
    set(this: object, value: ToolContext['op']) {
      Object.defineProperty(this, 'op', { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: false,
    configurable: false,
  },
  onAbort: {
    value(this: { [CALL_STATE]: CallState }, listener: (reason: unknown) => void): () => void {
      return this[CALL_STATE].onStop(listener);
    },
    enumerable: false,
    configurable: false,
    writable: false,
  },
}) as object;

/** The fields of a call context other than `signal` and `onAbort`. */
export type ContextFields = Omit<ToolContext, 'signal' | 'onAbort'>;

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A context whose `signal` and `op` are created on first access. */
export function createCallContext(
  state: CallState,
  callId: string,
  fields: Omit<ContextFields, 'callId' | 'deadline' | 'op'>,
  deadline: number,
): ToolContext {
  const ctx = Object.create(CONTEXT_PROTOTYPE) as Writable<ToolContext> & { [CALL_STATE]: CallState };
  ctx.callId = callId;
  ctx.principal = fields.principal;
  ctx.session = fields.session;
  ctx.trace = fields.trace;
  ctx.deadline = deadline;
  ctx.services = fields.services;
  ctx.progress = fields.progress;
  ctx[CALL_STATE] = state;
  return ctx;
}

/**
 * Gives a context its `signal` back when a middleware copied it with object spread (which
 * keeps the state symbol but not the prototype accessor).
 */
export function repairContext(ctx: ToolContext, state: CallState): ToolContext {
  // never read `signal` here: that would create it
  if (Object.getPrototypeOf(ctx) === CONTEXT_PROTOTYPE || Object.hasOwn(ctx, 'signal')) return ctx;
  const repaired = Object.create(CONTEXT_PROTOTYPE) as ToolContext & { [CALL_STATE]: CallState };
  Object.assign(repaired, ctx);
  repaired[CALL_STATE] = state;
  return repaired;
}
