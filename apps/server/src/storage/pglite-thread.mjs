// @ts-check
// The embedded database's own thread: it owns the PGlite instance, so statements (call record
// batches above all) run off the request thread. Plain JavaScript, loaded by path from both the
// sources (tests) and the build, as a worker cannot load TypeScript. Protocol, one message each:
//   in:  { id, sql, params }            -> out: { id, rows } or { id, error }
//   in:  { id, close: true }            -> out: { id, rows: [] } once the database is closed
//   out: { ready: true } or { failed }  once, after the database opened (or could not)
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const port = parentPort;
if (!port) throw new Error('pglite-thread.mjs runs as a worker thread');

/**
 * An error as plain data: its message, name and the fields PostgreSQL reports (code, detail,
 * constraint...), which structured cloning of an Error would drop.
 * @param {unknown} error
 */
function plainError(error) {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error' };
  /** @type {Record<string, unknown>} */
  const fields = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return fields;
}

/** @type {PGlite} */
let db;
try {
  db = await PGlite.create(workerData.dataDir);
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ failed: plainError(error) });
  port.close();
  throw error;
}

// one statement at a time, in the order they came: the request thread keeps transactions
// whole, this keeps a statement from starting before the one ahead of it has finished
let tail = Promise.resolve();
port.on(
  'message',
  (/** @type {{ id: number, sql?: string, params?: unknown[], close?: boolean }} */ message) => {
    tail = tail.then(async () => {
      if (message.close) {
        await db.close().catch(() => undefined);
        port.postMessage({ id: message.id, rows: [] });
        port.close();
        return;
      }
      try {
        const result = await db.query(message.sql ?? '', message.params ?? []);
        port.postMessage({ id: message.id, rows: result.rows });
      } catch (error) {
        port.postMessage({ id: message.id, error: plainError(error) });
      }
    });
  },
);
