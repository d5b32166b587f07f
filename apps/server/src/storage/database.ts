/** Something that runs SQL: the database itself or one transaction. */
export interface SqlClient {
  /** Runs one statement with `$1`-style parameters and answers its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/**
 * The server's storage: PGlite (embedded) or PostgreSQL behind one interface, so every store
 * is written once in the SQL both run.
 */
export interface Database extends SqlClient {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `body` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(body: (tx: SqlClient) => Promise<T>): Promise<T>;
  /**
   * Sends `payload` to every listener of `channel`, in every server instance on this
   * database (PostgreSQL NOTIFY). The embedded database serves one process: a no-op there.
   */
  notify(channel: string, payload: string): Promise<void>;
  /** Calls `listener` with each payload sent to `channel` by any instance; resolves once listening. */
  listen(channel: string, listener: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
}
