import { createId } from '@toolplane/core';
import { isCallId } from './check-caller.js';
import { shortened } from '../output/text-bytes.js';

/** The id a call was given, or why it cannot have the one its caller chose. */
export interface PickedCallId {
  readonly callId: string;
  /** Whether the caller chose the id (it is then held while the call runs). */
  readonly chosen: boolean;
  /** The caller's id when it names a call in flight: the call is refused (see {@link takenIdMessage}). */
  readonly taken?: string;
}

/** Why a call whose id names a call in flight is refused, and what to do. */
export function takenIdMessage(callId: string, tool: string): string {
  return `callId "${shortened(callId, 100)}" of a call to ${tool} is already used by a call in flight; give each call a fresh id, or leave callId out for a generated one`;
}

/**
 * The ids of the calls in flight. A call id names one call: events, accounting records, the span
 * and the operation-tree node carry it, and a context a middleware rebuilt is matched to its call
 * by it. So an id a caller chose must not name a call that is still running; once that call has
 * ended the id is free again (a model may resend a tool call with its id after a timeout).
 *
 * Only ids that callers chose are kept in a set: generated ids are unique by construction and
 * cost no hash-table work. A caller can reuse a generated id only by reading it from the
 * orchestrator (a tool's `ctx.callId`, an event); such ids share a prefix, and only those are
 * looked up among the calls in flight.
 */
export class CallIds {
  private readonly chosen = new Set<string>();
  private readonly generatedPrefix: string;
  private readonly runningGenerated: (callId: string) => boolean;

  /** `runningGenerated` says whether a call in flight has this id (asked for generated-looking ids only). */
  constructor(runningGenerated: (callId: string) => boolean) {
    const sample = createId('call');
    this.generatedPrefix = sample.slice(0, sample.lastIndexOf('_') + 1);
    this.runningGenerated = runningGenerated;
  }

  /**
   * The id of a new call: the caller's own when it is free; a generated one when the caller gave
   * none (or one of the wrong shape, refused later) and when the caller's names a call in flight,
   * so the refusal is recorded apart from the running call's events and records.
   */
  pick(given: unknown): PickedCallId {
    if (given === undefined || !isCallId(given)) return { callId: this.generate(), chosen: false };
    if (!this.inFlight(given)) return { callId: given, chosen: true };
    return { callId: this.generate(), chosen: false, taken: given };
  }

  /** Marks a caller's id as in flight (generated ids need no mark). */
  hold(callId: string, chosen: boolean): void {
    if (chosen) this.chosen.add(callId);
  }

  /** Frees a caller's id when its call ends. */
  release(callId: string, chosen: boolean): void {
    if (chosen) this.chosen.delete(callId);
  }

  private inFlight(callId: string): boolean {
    return (
      this.chosen.has(callId) || (callId.startsWith(this.generatedPrefix) && this.runningGenerated(callId))
    );
  }

  private generate(): string {
    let callId = createId('call');
    // each createId is new; a caller may have chosen one that is, so skip it (bounded by their count)
    while (this.chosen.size > 0 && this.chosen.has(callId)) callId = createId('call');
    return callId;
  }
}
