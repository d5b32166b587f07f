import { Worker } from 'node:worker_threads';
import type { Database, SqlClient } from './database.js';
import { createSerialQueue } from './serial-queue.js';

/** The database thread's script, at the same place from the sources and from the build. */
const THREAD_SCRIPT = new URL('../../src/storage/pglite-thread.mjs', import.meta.url);

interface Answer {
  readonly id?: number;
  readonly rows?: unknown[];
  readonly error?: Record<string, unknown>;
  readonly ready?: boolean;
  readonly failed?: Record<string, unknown>;
}

/** An error the database thread reported, with PostgreSQL's fields (code, detail...) on it. */
function toError(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message ?? 'the embedded database failed'));
  Object.assign(error, fields);
  return error;
}

/**
 * Opens (creating on first use) an embedded PostgreSQL database in `dataDir`, run on a worker
 * thread of its own so its statements do not take the request thread's time. Statements and
 * transactions go one at a time through a queue here, as PGlite serves one connection.
 */
export async function openPglite(dataDir: string): Promise<Database> {
  const worker = new Worker(THREAD_SCRIPT, { workerData: { dataDir } });
  const pending = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let stopped: Error | undefined;
  const stop = (error: Error): void => {
    stopped ??= error;
    for (const waiting of pending.values()) waiting.reject(stopped);
    pending.clear();
  };
  const opened = new Promise<void>((resolve, reject) => {
    worker.on('message', (answer: Answer) => {
      if (answer.ready) return resolve();
      if (answer.failed) return reject(toError(answer.failed));
      const waiting = pending.get(answer.id as number);
      if (!waiting) return;
      pending.delete(answer.id as number);
      // an idle database thread does not keep the process alive; one with work does
      if (pending.size === 0) worker.unref();
      if (answer.error) waiting.reject(toError(answer.error));
      else waiting.resolve(answer.rows ?? []);
    });
    worker.once('error', (error) => {
      reject(error);
      stop(new Error(`the embedded database stopped: ${error.message}`, { cause: error }));
    });
    worker.once('exit', (code) => {
      reject(new Error(`the embedded database thread exited (code ${code}) before it opened`));
      stop(new Error('the embedded database is closed'));
    });
  });
  const send = (
    message: { sql: string; params: readonly unknown[] } | { close: true },
  ): Promise<unknown[]> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<unknown[]>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  };
  try {
    await opened;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  worker.unref();
  const serial = createSerialQueue();
  const client: SqlClient = {
    query: <Row>(sql: string, params: readonly unknown[] = []) => send({ sql, params }) as Promise<Row[]>,
  };
  let closed: Promise<void> | undefined;
  return {
    kind: 'pglite',
    query: (sql, params) => serial(() => client.query(sql, params)),
    transaction: (body) =>
      serial(async () => {
        await client.query('BEGIN');
        try {
          const result = await body(client);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }),
    // one process owns an embedded database: its changes are applied locally as they are made
    notify: async () => undefined,
    listen: async () => undefined,
    close() {
      closed ??= serial(async () => {
        // the thread closes the database (its last writes reach the disk), then it is stopped
        await send({ close: true }).catch(() => undefined);
        stop(new Error('the embedded database is closed'));
        await worker.terminate();
      });
      return closed;
    },
  };
}
