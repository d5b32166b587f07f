import { HTTPException } from 'hono/http-exception';
import type { Scrubber } from '@toolplane/scrubber';
import { logErrorLine } from '../observe/error-line.js';
import type { LogSink } from '../observe/request-log.js';
import { DatabaseUnavailableError } from '../storage/database-unavailable.js';
import { ApiError } from './api-error.js';

/** How a failed request is answered: status, JSON body, extra headers. */
export interface ErrorAnswer {
  readonly status: number;
  readonly body: ReturnType<ApiError['toJSON']>;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The answer to an error thrown while serving a request, the same on every route: an
 * {@link ApiError} as itself, a database outage as 503 with Retry-After, a client error of
 * hono's as 400-style, anything else as 500 (its stack goes to the log, scrubbed).
 */
export function answerError(error: unknown, log: LogSink, scrubber: Scrubber): ErrorAnswer {
  if (error instanceof ApiError) return { status: error.status, body: error.toJSON() };
  if (error instanceof DatabaseUnavailableError)
    return {
      status: 503,
      headers: { 'retry-after': '1' },
      body: new ApiError(
        503,
        'PROVIDER_UNAVAILABLE',
        'database_unavailable',
        'the database does not answer: retry in a moment (GET /readyz answers 200 once it is back)',
      ).toJSON(),
    };
  if (error instanceof HTTPException && error.status < 500)
    return {
      status: error.status,
      body: new ApiError(
        error.status,
        'INVALID_ARGUMENTS',
        'bad_request',
        error.message || 'the request is malformed',
      ).toJSON(),
    };
  logErrorLine(log, scrubber, String((error as Error)?.stack ?? error));
  return {
    status: 500,
    body: new ApiError(
      500,
      'INTERNAL',
      'internal',
      'the server failed this request; the log has the details',
    ).toJSON(),
  };
}
