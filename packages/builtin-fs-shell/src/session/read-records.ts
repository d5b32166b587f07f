import { ToolError } from '@toolplane/core';
import { setMostRecent } from './most-recent.js';

/** What a session saw of a file when it last read (or wrote) it. */
export interface ReadRecord {
  readonly mtimeMs: number;
  readonly size: number;
}

/**
 * Read-before-write bookkeeping of one session: a write or edit of an existing file is allowed
 * only when the session read it and it has not changed since.
 */
export class ReadRecords {
  private readonly records = new Map<string, ReadRecord>();

  /**
   * @param maxRecords Files remembered at most; past it the least recently read is forgotten
   *   (a write to it then asks for a read first, the safe side).
   */
  constructor(private readonly maxRecords = 4096) {}

  /** Files remembered now. */
  get size(): number {
    return this.records.size;
  }

  /** Remembers the state of a file the session has just read or written. */
  remember(key: string, record: ReadRecord): void {
    setMostRecent(this.records, key, { mtimeMs: record.mtimeMs, size: record.size }, this.maxRecords);
  }

  forget(key: string): void {
    this.records.delete(key);
  }

  /** Throws when the file exists and the session has not read its current version. */
  assertFresh(key: string, display: string, current: ReadRecord | undefined): void {
    if (current === undefined) return;
    const seen = this.records.get(key);
    if (seen === undefined) {
      throw new ToolError(
        'DENIED',
        `${display} exists and has not been read in this session; call read on it first, then retry`,
      );
    }
    if (seen.mtimeMs !== current.mtimeMs || seen.size !== current.size) {
      throw new ToolError(
        'DENIED',
        `${display} changed on disk since this session read it; call read on it again, then retry`,
      );
    }
  }
}
