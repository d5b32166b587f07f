import type { ErrorRelay } from './error-relay.js';

/** The protocol errors of a session whose start failed, by the error it failed with. */
const failedStarts = new WeakMap<object, ErrorRelay>();

/**
 * Marks `error` (a failed start's) with the protocol errors its session saw while starting,
 * which no listener heard: a stdio server's stdout lines that are not JSON-RPC, where a careless
 * server prints why it cannot start. See {@link replayStartErrors}.
 */
export function keepStartErrors(error: unknown, errors: ErrorRelay): void {
  if (typeof error === 'object' && error !== null) failedStarts.set(error, errors);
}

/**
 * Hands `listener` the protocol errors seen during the failed start that threw `error` (see
 * {@link keepStartErrors}), once; nothing when it kept none.
 */
export function replayStartErrors(error: unknown, listener: (message: string) => void): void {
  if (typeof error !== 'object' || error === null) return;
  const errors = failedStarts.get(error);
  failedStarts.delete(error);
  errors?.drainEarly(listener);
}
