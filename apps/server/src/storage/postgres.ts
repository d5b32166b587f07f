import pg from 'pg';
import type { Database, SqlClient } from './database.js';
import { guardConnection } from './database-unavailable.js';
import { RESYNC_PAYLOAD } from './resync.js';
import { PostgresListener } from './postgres-listener.js';

/**
 * Connects to PostgreSQL (`postgres://user:password@host:port/db`) with a small pool. A lost
 * connection fails the statements on it with a `DatabaseUnavailableError`; the pool makes new
 * connections for the next ones, so the server recovers once the database is back.
 */
export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // an idle connection the server drops (a restart, pg_terminate_backend) is reported here;
  // the pool discards it, and without a listener the event would end the process
  pool.on('error', () => undefined);
  // fail at start, with the driver's reason, rather than at the first request
  const probe = await pool.connect();
  probe.release();
  const client = (run: Pick<pg.Pool | pg.PoolClient, 'query'>): SqlClient => ({
    query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      return guardConnection(async () => (await run.query(sql, [...params])).rows as Row[]);
    },
  });
  let closed: Promise<void> | undefined;
  const listener = new PostgresListener(url, RESYNC_PAYLOAD);
  return {
    kind: 'postgres',
    ...client(pool),
    async transaction(body) {
      const connection = await guardConnection(() => pool.connect());
      let broken: Error | undefined;
      try {
        await guardConnection(() => connection.query('BEGIN'));
        const result = await body(client(connection));
        await guardConnection(() => connection.query('COMMIT'));
        return result;
      } catch (error) {
        await connection.query('ROLLBACK').catch((rollback: Error) => {
          broken = rollback;
        });
        throw error;
      } finally {
        // a connection that could not roll back is not given to the next request
        connection.release(broken);
      }
    },
    async notify(channel, payload) {
      await guardConnection(() => pool.query('SELECT pg_notify($1, $2)', [channel, payload]));
    },
    listen: (channel, onPayload) => listener.listen(channel, onPayload),
    close() {
      closed ??= Promise.all([pool.end(), listener.close()]).then(() => undefined);
      return closed;
    },
  };
}
