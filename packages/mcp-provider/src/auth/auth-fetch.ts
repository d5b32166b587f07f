import { ToolError } from '@toolplane/core';

/**
 * A fetch whose requests without a signal of their own (the SDK's discovery, registration and
 * token requests) give up after `timeoutMs`: an authorization server that never answers fails
 * the call with `TIMEOUT` instead of holding it. MCP requests carry the transport's signal.
 */
export function authTimeoutFetch(base: typeof fetch, timeoutMs: number): typeof fetch {
  return async (input, init) => {
    if (init?.signal) return base(input, init);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await base(input, { ...init, signal });
    } catch (error) {
      if (signal.aborted) {
        const url = new URL(input instanceof Request ? input.url : String(input));
        throw new ToolError(
          'TIMEOUT',
          `authorization request to ${url.origin}${url.pathname} got no answer within ${timeoutMs} ms`,
          { details: { url: `${url.origin}${url.pathname}`, timeoutMs }, cause: error },
        );
      }
      throw error;
    }
  };
}
