import type { CallState } from './call-state.js';

/**
 * The calls in flight. An array whose members know their index: adding is a push, removing
 * swaps the last call into the hole. A Set that gains and loses one member per call would
 * rehash (and allocate) every few calls.
 */
export class InflightCalls {
  private readonly calls: CallState[] = [];

  get size(): number {
    return this.calls.length;
  }

  add(state: CallState): void {
    state.inflightIndex = this.calls.length;
    this.calls.push(state);
  }

  delete(state: CallState): void {
    const index = state.inflightIndex;
    if (index < 0 || this.calls[index] !== state) return;
    const last = this.calls.pop() as CallState;
    if (last !== state) {
      this.calls[index] = last;
      last.inflightIndex = index;
    }
    state.inflightIndex = -1;
  }

  /** A copy, safe to iterate while calls end. */
  snapshot(): CallState[] {
    return [...this.calls];
  }

  find(callId: string): CallState | undefined {
    return this.calls.find((state) => state.callId === callId);
  }
}
