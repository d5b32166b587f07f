import type { ToolError } from '@toolplane/core';
import { CallIds, type PickedCallId } from './call-ids.js';
import type { CallState } from './call-state.js';
import { StartingCalls, type StartWaitLimits } from './starting-calls.js';
import { IndexedList } from './indexed-list.js';

/**
 * The calls in flight (from admission to their result: running, in a queue, in middleware),
 * their ids, and the calls still waiting for the providers to start; stopping one by its id or
 * all of them.
 */
export class CallsInFlight {
  private readonly states = new IndexedList<CallState>();
  private readonly ids = new CallIds((callId) => this.find(callId) !== undefined);
  private readonly starting = new StartingCalls();

  /** Calls in flight. */
  get size(): number {
    return this.states.size;
  }

  /** The id of a new call (see {@link CallIds.pick}). */
  pickId(given: unknown): PickedCallId {
    return this.ids.pick(given);
  }

  /**
   * Waits for the providers' start, at most until a cancel, the caller's signal or the call's
   * timeout; answers the stop that ended the wait, if one did.
   */
  waitToStart(
    ready: Promise<unknown>,
    options: unknown,
    limits: StartWaitLimits,
  ): Promise<ToolError | undefined> {
    return this.starting.wait(ready, options, limits);
  }

  add(state: CallState, chosenId: boolean): void {
    this.states.add(state);
    this.ids.hold(state.callId, chosenId);
  }

  delete(state: CallState, chosenId: boolean): void {
    this.states.delete(state);
    this.ids.release(state.callId, chosenId);
  }

  /** The call in flight with this id (ids are unique among them). */
  find(callId: string): CallState | undefined {
    return this.states.find((state) => state.callId === callId);
  }

  /**
   * Stops the call with this id with `error`: running, waiting in a queue or in middleware (an
   * approval), or waiting for the providers to start. Calls it made with its `ctx.signal` stop
   * with it. Answers whether such a call was there, not already stopping, and not already
   * answered (an answer on its way back is kept: {@link CallState.cancel}).
   */
  stop(callId: string, error: ToolError): boolean {
    const waited = this.starting.cancel(callId, error);
    const state = this.find(callId);
    return state ? state.cancel(error) || waited : waited;
  }

  /**
   * Stops every call in flight, and every call waiting for the providers to start, with `error`.
   * A call whose answer is on its way back keeps it, unless `force` (`close()`: deadlines no
   * longer fire after it, so a call still in a middleware must end now).
   */
  stopAll(error: ToolError, force = false): void {
    this.starting.cancelAll(error);
    for (const state of this.states.snapshot()) {
      if (force) state.stop(error);
      else state.cancel(error);
    }
  }
}
