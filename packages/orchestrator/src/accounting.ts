import type { CallMeta } from '@toolplane/core';

/** One finished call. */
export interface AccountingRecord extends CallMeta {
  readonly sessionId: string;
  readonly startedAt: number;
  readonly ok: boolean;
  readonly code?: string;
}

/** Totals for one tool. */
export interface ToolTotals {
  calls: number;
  errors: number;
  cached: number;
  latencyMs: number;
  queueWaitMs: number;
  bytesIn: number;
  bytesOut: number;
}

/** What the ring keeps of a call: the meta the call already built, not a copy of it. */
interface Entry {
  readonly meta: CallMeta;
  readonly sessionId: string;
  readonly startedAt: number;
  readonly code: string | undefined;
}

/** Per-call records (a bounded ring) and running totals per tool. */
export class Accounting {
  private readonly ring: Entry[] = [];
  private next = 0;
  private readonly capacity: number;
  readonly totals = new Map<string, ToolTotals>();
  private lastTool: string | undefined;
  private lastTotals: ToolTotals | undefined;

  constructor(capacity = 1000) {
    this.capacity = Math.max(0, capacity);
  }

  record(meta: CallMeta, sessionId: string, startedAt: number, code: string | undefined): void {
    // agents call the same tool many times in a row: the last one is kept at hand
    let totals = meta.tool === this.lastTool ? this.lastTotals : this.totals.get(meta.tool);
    if (!totals) {
      totals = { calls: 0, errors: 0, cached: 0, latencyMs: 0, queueWaitMs: 0, bytesIn: 0, bytesOut: 0 };
      this.totals.set(meta.tool, totals);
    }
    this.lastTool = meta.tool;
    this.lastTotals = totals;
    totals.calls++;
    if (code !== undefined) totals.errors++;
    if (meta.cached) totals.cached++;
    totals.latencyMs += meta.latencyMs;
    totals.queueWaitMs += meta.queueWaitMs;
    totals.bytesIn += meta.bytesIn;
    totals.bytesOut += meta.bytesOut;
    if (this.capacity === 0) return;
    // the full record is built when someone reads it, not on every call
    const entry: Entry = { meta, sessionId, startedAt, code };
    if (this.ring.length < this.capacity) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** The most recent records, oldest first. */
  records(): AccountingRecord[] {
    const ordered =
      this.ring.length < this.capacity
        ? this.ring
        : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    return ordered.map(toRecord);
  }
}

function toRecord({ meta, sessionId, startedAt, code }: Entry): AccountingRecord {
  return {
    callId: meta.callId,
    tool: meta.tool,
    provider: meta.provider,
    kind: meta.kind,
    latencyMs: meta.latencyMs,
    queueWaitMs: meta.queueWaitMs,
    bytesIn: meta.bytesIn,
    bytesOut: meta.bytesOut,
    cached: meta.cached,
    attempts: meta.attempts,
    sessionId,
    startedAt,
    ok: code === undefined,
    ...(code === undefined ? {} : { code }),
    ...(meta.truncated ? { truncated: meta.truncated } : {}),
  };
}
