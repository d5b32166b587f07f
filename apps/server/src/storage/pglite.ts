import { PGlite } from '@electric-sql/pglite';
import type { Database, SqlClient } from './database.js';
import { createSerialQueue } from './serial-queue.js';

/** Opens (creating on first use) an embedded PostgreSQL database in `dataDir`. */
export async function openPglite(dataDir: string): Promise<Database> {
  const db = await PGlite.create(dataDir);
  const serial = createSerialQueue();
  const client = (run: Pick<PGlite, 'query'>): SqlClient => ({
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      const result = await run.query<Row>(sql, [...params]);
      return result.rows;
    },
  });
  const direct = client(db);
  let closed: Promise<void> | undefined;
  return {
    kind: 'pglite',
    query: (sql, params) => serial(() => direct.query(sql, params)),
    transaction: (body) => serial(() => db.transaction((tx) => body(client(tx)))),
    // one process owns an embedded database: its changes are applied locally as they are made
    notify: async () => undefined,
    listen: async () => undefined,
    close() {
      closed ??= serial(() => db.close());
      return closed;
    },
  };
}
