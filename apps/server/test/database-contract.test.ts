import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { Database } from '../src/storage/database.js';
import { type StorageOptions, openDatabase } from '../src/storage/open.js';
import { newPostgresDatabase, storages } from './helpers/test-server.js';

// What every store relies on, on both storages: the embedded one runs on a thread of its own
// and talks to the server's thread by messages, so errors, values and order must come through.
describe.each(storages())('the database contract on $kind', ({ kind, skip }) => {
  const dirs: string[] = [];
  const opened: Database[] = [];

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function storage(): Promise<StorageOptions> {
    if (kind === 'postgres') return { postgresUrl: await newPostgresDatabase() };
    const dir = mkdtempSync(join(tmpdir(), 'toolplane-contract-'));
    dirs.push(dir);
    cpSync(inject('pgliteTemplate'), join(dir, 'db'), { recursive: true });
    return { dataDir: join(dir, 'db') };
  }
  async function open(options: StorageOptions): Promise<Database> {
    const db = await openDatabase(options);
    opened.push(db);
    return db;
  }

  it.skipIf(skip)(
    'answers rows with their types and reports a failed statement with its SQLSTATE',
    async () => {
      const db = await open(await storage());
      const [row] = await db.query<{ n: number; at: Date; doc: unknown; none: null; flag: boolean }>(
        'SELECT $1::int AS n, $2::timestamptz AS at, $3::jsonb AS doc, NULL AS none, $4::boolean AS flag',
        [7, '2026-01-02T03:04:05.000Z', JSON.stringify({ a: [1, 'b'] }), true],
      );
      expect(row).toEqual({
        n: 7,
        at: new Date('2026-01-02T03:04:05.000Z'),
        doc: { a: [1, 'b'] },
        none: null,
        flag: true,
      });
      await db.query('INSERT INTO tenants (id) VALUES ($1)', ['twice']);
      const failure = await db
        .query('INSERT INTO tenants (id) VALUES ($1)', ['twice'])
        .catch((error) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(failure).toMatchObject({ code: '23505', constraint: 'tenants_pkey' });
      expect(String(failure.message)).toMatch(/duplicate key/);
      // the failure is the statement's own: the next one runs
      expect(await db.query('SELECT count(*)::int AS n FROM tenants WHERE id = $1', ['twice'])).toEqual([
        { n: 1 },
      ]);
    },
  );

  it.skipIf(skip)('commits a transaction that resolves and rolls back one that throws', async () => {
    const db = await open(await storage());
    const answer = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO tenants (id) VALUES ($1)', ['kept']);
      return (await tx.query<{ id: string }>('SELECT id FROM tenants WHERE id = $1', ['kept']))[0]?.id;
    });
    expect(answer).toBe('kept');
    const thrown = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO tenants (id) VALUES ($1)', ['dropped']);
        throw new Error('changed my mind');
      })
      .catch((error: Error) => error.message);
    expect(thrown).toBe('changed my mind');
    const failedInside = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO tenants (id) VALUES ($1)', ['dropped too']);
        await tx.query('INSERT INTO tenants (id) VALUES ($1)', ['kept']);
      })
      .catch((error: { code?: string }) => error.code);
    expect(failedInside).toBe('23505');
    const rows = await db.query<{ id: string }>(
      "SELECT id FROM tenants WHERE id IN ('kept', 'dropped', 'dropped too') ORDER BY id",
    );
    expect(rows).toEqual([{ id: 'kept' }]);
  });

  it.skipIf(skip)('keeps statements sent together apart from a transaction in flight', async () => {
    const db = await open(await storage());
    await db.query('CREATE TABLE contract_counter (n integer NOT NULL)');
    await db.query('INSERT INTO contract_counter (n) VALUES (0)');
    const started = db.transaction(async (tx) => {
      for (let step = 0; step < 5; step += 1) await tx.query('UPDATE contract_counter SET n = n + 1');
      throw new Error('rolled back');
    });
    const reads = Array.from({ length: 20 }, () => db.query<{ n: number }>('SELECT n FROM contract_counter'));
    await expect(started).rejects.toThrow('rolled back');
    // no read sees the transaction's uncommitted steps
    for (const read of await Promise.all(reads)) expect(read).toEqual([{ n: 0 }]);
  });

  it.skipIf(skip)(
    'keeps what was written across a close and a reopen, and refuses statements once closed',
    async () => {
      const options = await storage();
      const first = await open(options);
      await first.query('INSERT INTO tenants (id) VALUES ($1)', ['durable']);
      await first.close();
      await expect(first.query('SELECT 1')).rejects.toThrow();
      const second = await open(options);
      expect(await second.query('SELECT id FROM tenants WHERE id = $1', ['durable'])).toEqual([
        { id: 'durable' },
      ]);
    },
  );
});
