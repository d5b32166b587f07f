import { type ToolError, onAbort } from '@toolplane/core';
import { cancelledBy } from './cancel-call.js';

/** How a caller cancels its call: the `signal` and `onAbort` of its call options. */
export interface CallerAbort {
  readonly signal?: AbortSignal | undefined;
  onAbort?(listener: (reason: unknown) => void): () => void;
}

/**
 * The call options themselves when they carry a way to cancel (so `onAbort` is called on them),
 * else undefined. The options were checked: a `signal` or `onAbort` given is of the right kind.
 */
export function callerAbort(options: CallerAbort): CallerAbort | undefined {
  return options.signal !== undefined || options.onAbort !== undefined ? options : undefined;
}

/**
 * Runs `stop` with the call's `CANCELLED` error once the caller cancels; returns the remover.
 * The options' `onAbort` is used when given, as core's `onAbort` does for a context: a caller
 * that cancels each call on its own (the MCP gateway) needs no `AbortSignal` per call, whose
 * creation and listener cost several microseconds in Node 20. Else the `signal` is followed,
 * with one listener per signal however many calls share it (core's `onAbort`).
 */
export function followCaller(
  caller: CallerAbort,
  stop: (error: ToolError) => void,
): (() => void) | undefined {
  if (caller.onAbort) return caller.onAbort((reason) => stop(cancelledBy(reason)));
  const signal = caller.signal;
  return signal ? onAbort({ signal }, () => stop(cancelledBy(signal.reason))) : undefined;
}
