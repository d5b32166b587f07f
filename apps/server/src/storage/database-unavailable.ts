/**
 * The database did not answer: it is down, restarting, or dropped the connection. Routes answer
 * it with 503 `PROVIDER_UNAVAILABLE` (reason `database_unavailable`); the next request tries
 * again, so the server recovers by itself once the database is back.
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the database is unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

const NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
// SQLSTATE: 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now
const SQL_STATES = new Set(['57P01', '57P02', '57P03']);
const MESSAGES = [/connection terminated/i, /not queryable/i, /timeout exceeded when trying to connect/i];

/** Whether `error` says the connection to the database failed (rather than the statement). */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (NODE_CODES.has(code) || SQL_STATES.has(code) || code.startsWith('08')))
    return true;
  const message = (error as Error | null)?.message ?? '';
  return MESSAGES.some((pattern) => pattern.test(message));
}

/** Runs `body`, turning a connection failure into a {@link DatabaseUnavailableError}. */
export async function guardConnection<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw isConnectionFailure(error) && !(error instanceof DatabaseUnavailableError)
      ? new DatabaseUnavailableError(error)
      : error;
  }
}
