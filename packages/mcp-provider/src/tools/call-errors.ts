import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { type AbortSource, type ToolFailure, ToolError, errorMessage, fail } from '@toolplane/core';
import { isCursorTooLong } from './cursor.js';

/**
 * True when a remote server no longer knows our session (HTTP 404): re-initialize. The v1
 * client throws `StreamableHTTPError` with `code` 404; the v2 client (an optional peer, not
 * imported here) an `SdkHttpError` whose `status` is 404.
 */
export function isSessionExpired(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  if (!(error instanceof Error) || error.name !== 'SdkHttpError') return false;
  try {
    return (error as { status?: unknown }).status === 404;
  } catch {
    return false; // a getter that throws is no answer
  }
}

/** What a failure needs to say where it happened. */
export interface CallErrorContext {
  readonly server: string;
  readonly tool: string;
  readonly timeoutMs: number;
  /** The call's cancellation (its `signal` is read only here, on the failure path). */
  readonly abort: Pick<AbortSource, 'signal'>;
  /** Why the connection went down, with the stderr tail, when it did. */
  readonly lostReason: () => string;
}

/**
 * The SDK clients (1.x and v2) check structured content against a tool's output schema
 * themselves and throw protocol errors whose codes they share with other failures
 * (InvalidRequest: "Tool x has an output schema but did not return structured content";
 * InvalidParams: "Structured content does not match the tool's output schema: ...", "Failed to
 * validate structured content: ..."), so only their text tells them apart. The direct stdio
 * path throws `ToolError` `INVALID_RESULT` and needs none of this.
 */
const SDK_OUTPUT_SCHEMA_FAILURE =
  /has an output schema but did not return structured content|Structured content does not match the tool's output schema|Failed to validate structured content/;

/** Maps anything a call threw to a failure with a stable code and a message that says what to do. */
export function callFailure(error: unknown, context: CallErrorContext): ToolFailure {
  const where = `MCP server "${context.server}" tool "${context.tool}"`;
  if (ToolError.isInstance(error)) {
    const options = error.details ? { details: error.details } : {};
    // a session's verdict on a result does not know the server's name; the others name it
    if (error.code === 'INVALID_RESULT') return fail(error.code, `${where}: ${error.message}`, options);
    return fail(error.code, error.message, options);
  }
  if (context.abort.signal.aborted) {
    return fail(
      'CANCELLED',
      `${where}: the call was cancelled; the server was told to stop (notifications/cancelled)`,
    );
  }
  // the provider sends a call refused with 404 once more on a new session: this is its second 404
  if (isSessionExpired(error)) {
    return fail(
      'PROVIDER_UNAVAILABLE',
      `${where}: the server answered HTTP 404 (no such session) for a session it had just given, after one re-initialization, and the call did not run; check that every request reaches the same server (session affinity behind a load balancer), then call again`,
    );
  }
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      const total = (error.data as { maxTotalTimeout?: unknown } | undefined)?.maxTotalTimeout;
      if (typeof total === 'number') {
        return fail(
          'TIMEOUT',
          `${where}: no answer within ${total} ms in total (maxTotalTimeoutMs caps a call even while the tool sends progress); raise maxTotalTimeoutMs if the tool is slow`,
        );
      }
      return fail(
        'TIMEOUT',
        `${where}: no answer within ${context.timeoutMs} ms (requestTimeoutMs; progress notifications extend it); raise requestTimeoutMs if the tool is slow`,
      );
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      const reason = context.lostReason();
      return fail(
        'PROVIDER_UNAVAILABLE',
        `${where}: the server went away during the call${reason ? ` (${reason})` : ''}; it is being restarted`,
      );
    }
    if (
      (error.code === ErrorCode.InvalidParams || error.code === ErrorCode.InvalidRequest) &&
      SDK_OUTPUT_SCHEMA_FAILURE.test(error.message)
    ) {
      return fail('INVALID_RESULT', `${where}: ${error.message}`);
    }
    // a page of resources/list whose cursor the session refused (see guardCursors)
    if (isCursorTooLong(error.message)) return fail('INVALID_RESULT', `${where}: ${error.message}`);
    if (error.code === ErrorCode.InvalidParams) {
      return fail('INVALID_ARGUMENTS', `${where}: the server rejected the arguments: ${error.message}`);
    }
    return fail('EXECUTION_FAILED', `${where}: ${error.message}`);
  }
  const message = errorMessage(error);
  if (/not running|not open|not connected|EPIPE|ECONNREFUSED|ECONNRESET|fetch failed/i.test(message)) {
    const reason = context.lostReason();
    return fail('PROVIDER_UNAVAILABLE', `${where}: ${message}${reason ? ` (${reason})` : ''}`);
  }
  return fail('EXECUTION_FAILED', `${where}: ${message}${contentTypeHint(message)}`);
}

/**
 * What to do about an HTTP answer that is not MCP (an HTML page, plain text: a URL that is no MCP
 * endpoint, or a proxy's error page), for a message that says the SDK refused its content type;
 * empty for any other message.
 */
export function contentTypeHint(message: string): string {
  return /Unexpected content type/i.test(message)
    ? "; an MCP endpoint answers with application/json or text/event-stream: check that the URL is the server's MCP endpoint (and not a web page or a proxy's error page)"
    : '';
}

/**
 * Maps what a `tools/list` threw (from `start()` or `refreshTools()`) to a `ToolError` with a
 * stable code: a server's JSON-RPC error or a refused result would otherwise reach the caller as
 * the SDK's `McpError`, whose numeric code is not one of core's.
 */
export function listingError(
  error: unknown,
  context: { server: string; timeoutMs: number; signal?: AbortSignal | undefined; lostReason?: string },
): ToolError {
  if (ToolError.isInstance(error)) return error;
  const where = `MCP server "${context.server}": tools/list`;
  if (context.signal?.aborted) return new ToolError('CANCELLED', `${where} was cancelled`, { cause: error });
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new ToolError(
      'TIMEOUT',
      `${where} got no answer within ${context.timeoutMs} ms (requestTimeoutMs); raise requestTimeoutMs if the server is slow`,
      { cause: error },
    );
  }
  if (isSessionExpired(error)) {
    return new ToolError(
      'PROVIDER_UNAVAILABLE',
      `${where} failed: the server answered HTTP 404 (no such session) for a session it had just given, after one re-initialization; check that every request reaches the same server (session affinity behind a load balancer), then start again or call refreshTools`,
      { cause: error, retryable: true },
    );
  }
  const lost =
    error instanceof McpError && error.code === ErrorCode.ConnectionClosed && context.lostReason
      ? ` (${context.lostReason})`
      : '';
  return new ToolError(
    'PROVIDER_UNAVAILABLE',
    `${where} failed: ${errorMessage(error)}${lost}; its tools are offered once it lists them (start again or call refreshTools)`,
    { cause: error, retryable: true },
  );
}
