import type { SqlClient } from '../storage/database.js';

/** Length of one counting window. */
export const RATE_WINDOW_MS = 60_000;

/** Whether one more call of a key fits its limit, and when to retry when it does not. */
export interface RateVerdict {
  readonly allowed: boolean;
  readonly count: number;
  readonly retryAfterMs: number;
}

/**
 * Adds `delta` calls (0 reads) to the key's count of one window in the database and answers
 * the count of every instance. Every instance counts into the same row, in one atomic upsert.
 */
export async function addToWindow(
  db: SqlClient,
  keyId: string,
  window: number,
  delta: number,
): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    `INSERT INTO rate_counters (key_id, window_start, count) VALUES ($1, $2, $3)
     ON CONFLICT (key_id, window_start) DO UPDATE SET count = rate_counters.count + $3
     RETURNING count`,
    [keyId, window, delta],
  );
  return Number(row?.count ?? delta);
}

/** Drops the key's windows older than `window`, so the table stays small. */
export async function dropOlderWindows(db: SqlClient, keyId: string, window: number): Promise<void> {
  await db.query('DELETE FROM rate_counters WHERE key_id = $1 AND window_start < $2', [keyId, window]);
}
