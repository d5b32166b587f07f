import { SERVER_DEFAULTS } from '../config/server-options.js';
import type { SqlClient } from '../storage/database.js';
import type { CallRecord } from './call-record.js';
import {
  ROWS_PER_INSERT,
  insertCallRecords,
  pruneCallRecords,
  pruneTenantBeyond,
} from './call-record-store.js';

/** Options of {@link CallRecorder}. */
export interface CallRecorderOptions {
  /** How often buffered records are written; 250 ms by default. */
  readonly flushMs?: number;
  /** Records kept at most this long (pruned about once a minute); 7 days by default. */
  readonly retentionMs?: number;
  /** Records kept at most per tenant, the newest (pruned about once a minute); 100 000 by default. */
  readonly maxPerTenant?: number;
  /**
   * Whether a prune is followed by a plain VACUUM of the table, so new records reuse the space
   * of the pruned ones: for the embedded database, which has no autovacuum.
   */
  readonly vacuum?: boolean;
  /** Records held in memory at most, when the database cannot take them; the oldest go first. */
  readonly maxBuffered?: number;
  readonly now?: () => number;
  /** Told when a write fails (the records stay buffered for the next one). */
  readonly onError?: (error: unknown) => void;
}

/**
 * Books finished calls off the request path: a call adds its record to a buffer, and the buffer
 * goes to the database in batches every `flushMs`, or as soon as a batch is full. {@link close} writes what is left, so a
 * graceful shutdown loses nothing.
 */
export class CallRecorder {
  private buffer: CallRecord[] = [];
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> | undefined;
  private sizeFlush: NodeJS.Immediate | undefined;
  private failing = false;
  private lastPrune = 0;
  /** Tenants with records written since the last prune. */
  private readonly written = new Set<string>();
  private readonly now: () => number;

  constructor(
    private readonly db: SqlClient,
    private readonly options: CallRecorderOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? 250);
    this.timer.unref();
  }

  /** Adds one record to the next batch; a full batch is written soon, never on the caller's turn. */
  record(record: CallRecord): void {
    this.buffer.push(record);
    const max = this.options.maxBuffered ?? 100_000;
    if (this.buffer.length > max) this.buffer.splice(0, this.buffer.length - max);
    // after a failed write, the timer alone retries (a database that is down is not hammered)
    if (this.buffer.length >= ROWS_PER_INSERT && !this.sizeFlush && !this.writing && !this.failing) {
      this.sizeFlush = setImmediate(() => {
        this.sizeFlush = undefined;
        void this.flush();
      });
    }
  }

  /** Writes the buffered records (one write at a time); resolves once they are stored. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.buffer.length === 0) return;
    this.writing = this.writeOnce().finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }

  private async writeOnce(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    for (let start = 0; start < batch.length; start += ROWS_PER_INSERT) {
      try {
        await insertCallRecords(this.db, batch.slice(start, start + ROWS_PER_INSERT));
      } catch (error) {
        // kept, ahead of what came since, for the next flush
        this.buffer = [...batch.slice(start), ...this.buffer];
        this.failing = true;
        this.options.onError?.(error);
        return;
      }
    }
    this.failing = false;
    for (const record of batch) this.written.add(record.tenantId);
    const now = this.now();
    if (now - this.lastPrune >= 60_000) {
      this.lastPrune = now;
      await this.prune(now).catch((error: unknown) => this.options.onError?.(error));
    }
  }

  /** Drops records past their age, then the oldest of each tenant past its count. */
  private async prune(now: number): Promise<void> {
    await pruneCallRecords(
      this.db,
      now - (this.options.retentionMs ?? SERVER_DEFAULTS.callRecordRetentionMs),
    );
    const tenants = [...this.written];
    this.written.clear();
    for (const tenantId of tenants)
      await pruneTenantBeyond(
        this.db,
        tenantId,
        this.options.maxPerTenant ?? SERVER_DEFAULTS.callRecordsPerTenant,
      );
    if (this.options.vacuum) await this.db.query('VACUUM call_records');
  }

  /** Stops the timer and writes everything buffered. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.sizeFlush) clearImmediate(this.sizeFlush);
    this.sizeFlush = undefined;
    await this.flush();
  }
}
