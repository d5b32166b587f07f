import { MIDDLEWARE_PHASES, type Middleware, type NextMiddleware, type ToolCall } from '@toolplane/core';

/**
 * One function for the whole chain: middleware ordered by phase (built-ins first within a
 * phase, then the app's in the order added), outermost first, ending at `terminal`.
 */
export function composeMiddleware(
  builtins: readonly Middleware[],
  added: readonly Middleware[],
  terminal: NextMiddleware,
): NextMiddleware {
  const ordered: Middleware[] = [];
  for (const phase of MIDDLEWARE_PHASES) {
    for (const middleware of builtins) if (middleware.phase === phase) ordered.push(middleware);
    for (const middleware of added) if (middleware.phase === phase) ordered.push(middleware);
  }
  let next: NextMiddleware = terminal;
  for (let i = ordered.length - 1; i >= 0; i--) {
    const middleware = ordered[i] as Middleware;
    const handle = middleware.handle;
    if (!handle) continue;
    const inner = next;
    next = (call: ToolCall) => handle.call(middleware, call, inner);
  }
  return next;
}
