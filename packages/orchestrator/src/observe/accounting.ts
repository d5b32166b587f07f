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
  // the ring as parallel arrays: no object per call beyond the meta the call already built
  private readonly metas: CallMeta[] = [];
  private readonly sessions: string[] = [];
  private readonly starts: number[] = [];
  private readonly codes: Array<string | undefined> = [];
  private next = 0;
  private readonly capacity: number;
  readonly totals = new Map<string, ToolTotals>();
  private lastTool: string | undefined;
  private lastTotals: ToolTotals | undefined;

  constructor(capacity = 1000) {
    this.capacity = Math.max(0, capacity);
  }

  /** Books a call; its totals go under `totalsKey` (the tool's name unless told otherwise). */
  record(
    meta: CallMeta,
    sessionId: string,
    startedAt: number,
    code: string | undefined,
    totalsKey: string = meta.tool,
  ): void {
    // agents call the same tool many times in a row: the last one is kept at hand
    let totals = totalsKey === this.lastTool ? this.lastTotals : this.totals.get(totalsKey);
    if (!totals) {
      totals = { calls: 0, errors: 0, cached: 0, latencyMs: 0, queueWaitMs: 0, bytesIn: 0, bytesOut: 0 };
      this.totals.set(totalsKey, totals);
    }
    this.lastTool = totalsKey;
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
    const at = this.metas.length < this.capacity ? this.metas.length : this.next;
    this.metas[at] = meta;
    this.sessions[at] = sessionId;
    this.starts[at] = startedAt;
    this.codes[at] = code;
    this.next = (at + 1) % this.capacity;
  }

  /** The most recent records, oldest first. */
  records(): AccountingRecord[] {
    const count = this.metas.length;
    const first = count < this.capacity ? 0 : this.next;
    const out: AccountingRecord[] = [];
    for (let i = 0; i < count; i++) {
      const at = (first + i) % count;
      out.push(
        toRecord(
          this.metas[at] as CallMeta,
          this.sessions[at] as string,
          this.starts[at] as number,
          this.codes[at],
        ),
      );
    }
    return out;
  }
}

function toRecord(
  meta: CallMeta,
  sessionId: string,
  startedAt: number,
  code: string | undefined,
): AccountingRecord {
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
