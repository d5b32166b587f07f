import type { Database } from './database.js';
import { migrate } from './migrations.js';

/** Where the data lives: a PostgreSQL URL, or a directory for the embedded database. */
export type StorageOptions = { readonly postgresUrl: string } | { readonly dataDir: string };

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(options: StorageOptions): Promise<Database> {
  const db =
    'postgresUrl' in options
      ? await (await import('./postgres.js')).openPostgres(options.postgresUrl)
      : await (await import('./pglite.js')).openPglite(options.dataDir);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
