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

/** Per-call records (a bounded ring) and running totals per tool. */
export class Accounting {
  private readonly ring: AccountingRecord[] = [];
  private next = 0;
  private readonly capacity: number;
  readonly totals = new Map<string, ToolTotals>();

  constructor(capacity = 1000) {
    this.capacity = Math.max(0, capacity);
  }

  record(meta: CallMeta, sessionId: string, startedAt: number, code: string | undefined): void {
    const record: AccountingRecord = {
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
    let totals = this.totals.get(record.tool);
    if (!totals) {
      totals = { calls: 0, errors: 0, cached: 0, latencyMs: 0, queueWaitMs: 0, bytesIn: 0, bytesOut: 0 };
      this.totals.set(record.tool, totals);
    }
    totals.calls++;
    if (!record.ok) totals.errors++;
    if (record.cached) totals.cached++;
    totals.latencyMs += record.latencyMs;
    totals.queueWaitMs += record.queueWaitMs;
    totals.bytesIn += record.bytesIn;
    totals.bytesOut += record.bytesOut;
    if (this.capacity === 0) return;
    if (this.ring.length < this.capacity) this.ring.push(record);
    else this.ring[this.next] = record;
    this.next = (this.next + 1) % this.capacity;
  }

  /** The most recent records, oldest first. */
  records(): AccountingRecord[] {
    if (this.ring.length < this.capacity) return [...this.ring];
    return [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }
}
