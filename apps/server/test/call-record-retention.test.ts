import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { CallRecord } from '../src/accounting/call-record.js';
import { CallRecorder } from '../src/accounting/call-recorder.js';
import type { Database } from '../src/storage/database.js';
import { openDatabase } from '../src/storage/open.js';
import { newPostgresDatabase, storages } from './helpers/test-server.js';

const MINUTE = 60_000;

function recordOf(tenantId: string, index: number, startedAt: number): CallRecord {
  return {
    tenantId,
    callId: `call_${tenantId}_${index}`,
    parentId: null,
    originId: `call_${tenantId}_${index}`,
    sessionId: 's',
    principalKind: 'agent',
    principalId: 'a',
    tool: 'quick__noop',
    ok: index % 2 === 0,
    code: index % 2 === 0 ? null : 'DENIED',
    latencyMs: 1.25,
    startedAt,
  };
}

describe.each(storages())('call record retention on $kind', ({ kind, skip }) => {
  let db: Database | undefined;
  let dir: string | undefined;

  afterEach(async () => {
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<Database> {
    if (kind === 'postgres') return openDatabase({ postgresUrl: await newPostgresDatabase() });
    dir = mkdtempSync(join(tmpdir(), 'toolplane-retention-'));
    cpSync(inject('pgliteTemplate'), join(dir, 'db'), { recursive: true });
    return openDatabase({ dataDir: join(dir, 'db') });
  }
  const count = async (tenantId: string): Promise<number> => {
    const [row] = await (db as Database).query<{ n: number | string }>(
      'SELECT count(*) AS n FROM call_records WHERE tenant_id = $1',
      [tenantId],
    );
    return Number(row?.n);
  };

  it.skipIf(skip)('keeps the newest records of each tenant and none past their age', async () => {
    db = await open();
    for (const tenant of ['busy', 'quiet'])
      await db.query('INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING', [tenant]);
    let now = Date.UTC(2026, 0, 1);
    const recorder = new CallRecorder(db, {
      flushMs: 3_600_000,
      now: () => now,
      maxPerTenant: 5,
      retentionMs: 10 * MINUTE,
      vacuum: kind === 'pglite',
    });
    try {
      // the first write prunes (nothing yet); the next prune comes a minute later
      recorder.record(recordOf('quiet', 0, now - 9.5 * MINUTE));
      await recorder.flush();
      for (let i = 0; i < 12; i += 1) recorder.record(recordOf('busy', i, now + i));
      for (let i = 1; i < 4; i += 1) recorder.record(recordOf('quiet', i, now + i));
      await recorder.flush();
      expect([await count('busy'), await count('quiet')]).toEqual([12, 4]);
      now += MINUTE;
      recorder.record(recordOf('busy', 12, now));
      await recorder.flush();
      const kept = await db.query<{ call_id: string }>(
        "SELECT call_id FROM call_records WHERE tenant_id = 'busy' ORDER BY started_at",
      );
      expect(kept.map((row) => row.call_id)).toEqual([8, 9, 10, 11, 12].map((i) => `call_busy_${i}`));
      // the quiet tenant is under its count; its record older than the retention is gone
      expect(await count('quiet')).toBe(3);
    } finally {
      await recorder.close();
    }
  });
});
