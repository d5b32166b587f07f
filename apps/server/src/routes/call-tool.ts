import { type ProgressUpdate, type ToolResult, fail } from '@toolplane/core';
import type { ServerPrincipal } from '../auth/principal.js';
import { ApiError } from '../http/api-error.js';
import type { RouteDeps } from './deps.js';

/**
 * One call on behalf of a principal, the way every path (REST, batch, MCP) makes it: through
 * the tenant runtime, so through the grant gate, the policy and the scrubber; counted.
 */
export async function callTool(
  deps: RouteDeps,
  principal: ServerPrincipal,
  name: string,
  args: unknown,
  options: { signal?: AbortSignal; progress?: (update: ProgressUpdate) => void } = {},
): Promise<ToolResult> {
  if (deps.stopping())
    throw new ApiError(
      503,
      'PROVIDER_UNAVAILABLE',
      'stopping',
      'the server is shutting down: retry against another instance',
    );
  const started = performance.now();
  let result: ToolResult;
  const verdict =
    deps.rateLimiter && principal.keyId !== '' ? await deps.rateLimiter.check(principal.keyId) : undefined;
  if (verdict && !verdict.allowed) {
    result = fail(
      'RATE_LIMITED',
      `this key made ${deps.rateLimitPerMinute} tool calls this minute, its limit: retry in ${Math.ceil(verdict.retryAfterMs / 1000)} s`,
      { details: { retryAfterMs: verdict.retryAfterMs, limitPerMinute: deps.rateLimitPerMinute } },
    );
  } else {
    const runtime = await deps.runtimes.get(principal.tenantId);
    result = await runtime.call(principal, name, args, options);
  }
  // the orchestrator's "did you mean" would name tools this principal is not granted
  if (!result.ok && result.error.code === 'TOOL_NOT_FOUND')
    result = {
      ok: false,
      error: {
        code: 'TOOL_NOT_FOUND',
        message: `no tool "${name}" for this key: GET /v1/tools lists the tools you can call`,
        retryable: false,
      },
      ...(result.meta ? { meta: result.meta } : {}),
    };
  const outcome = result.ok ? 'ok' : result.error.code;
  deps.metrics.toolCalls.inc({ outcome });
  deps.metrics.toolCallSeconds.observe({ outcome }, (performance.now() - started) / 1000);
  return result;
}

/** The HTTP status of a call's result: the call itself answered 200 unless it never ran. */
export function statusOfResult(result: ToolResult): 200 | 400 | 403 | 404 | 429 {
  if (result.ok) return 200;
  switch (result.error.code) {
    case 'TOOL_NOT_FOUND':
      return 404;
    case 'DENIED':
      return 403;
    case 'INVALID_ARGUMENTS':
      return 400;
    case 'RATE_LIMITED':
      return 429;
    default:
      return 200;
  }
}
