import type { ToolResult } from '@toolplane/core';
import type { CallState } from '../call/call-state.js';

/** One call running a cached tool for a key, which calls with the same key wait for. */
export interface Flight {
  /** The provider's tool list the call runs under: a call under another list does not wait for it. */
  readonly listing: unknown;
  /** Its result; undefined when it was stopped or its chain threw (no answer to share). */
  readonly settled: Promise<ToolResult | undefined>;
}

/** How often one call waits for another before it runs the tool itself. */
export const MAX_WAITS = 3;

/**
 * The calls running a cached tool, by cache key. A call with the same key waits for the one
 * running rather than running the tool again (ten identical calls made together ran it ten
 * times). An entry ends when its call settles or is stopped, so a stopped or hung call never
 * holds the others; a map entry lives only while its call runs.
 */
export class Flights {
  private readonly running = new Map<string, Flight>();

  /** The call running for `key` under `listing`, if there is one. */
  find(key: string, listing: unknown): Flight | undefined {
    const flight = this.running.get(key);
    return flight && flight.listing === listing ? flight : undefined;
  }

  /**
   * Marks `key` as run by the call of `state` (when no call runs it yet); answers the function
   * that ends the flight with the call's result (undefined: nothing to share).
   */
  start(
    key: string,
    listing: unknown,
    state: CallState | undefined,
  ): (result: ToolResult | undefined) => void {
    if (this.running.has(key)) return () => {};
    let finish: (result: ToolResult | undefined) => void = () => {};
    const flight: Flight = {
      listing,
      settled: new Promise((resolve) => {
        finish = resolve;
      }),
    };
    this.running.set(key, flight);
    let ended = false;
    let unstop = (): void => {};
    const end = (result: ToolResult | undefined): void => {
      if (ended) return;
      ended = true;
      unstop();
      if (this.running.get(key) === flight) this.running.delete(key);
      finish(result);
    };
    // a stop (its deadline, a cancel) frees the waiting calls at once, even if its chain hangs
    if (state) unstop = state.onStop(() => end(undefined));
    return end;
  }

  /** Forgets every flight (their calls go on; calls made later run the tool again). */
  clear(): void {
    this.running.clear();
  }
}

/** What waiting for a flight gave: its result, nothing to share, or this call's own stop. */
export type Waited = { readonly result: ToolResult | undefined } | { readonly stopped: true };

/** Waits for `flight`, or for the stop of the waiting call itself (its deadline, its cancel). */
export function waitFor(flight: Flight, state: CallState | undefined): Promise<Waited> {
  if (!state) return flight.settled.then((result) => ({ result }));
  return new Promise((resolve) => {
    const unstop = state.onStop(() => resolve({ stopped: true }));
    void flight.settled.then((result) => {
      unstop();
      resolve({ result });
    });
  });
}
