import type { Middleware, RegisteredTool } from '@toolplane/core';
import { thrownMessage } from '../call/thrown.js';

/**
 * Tells every middleware the full tool list. One whose `onToolsChanged` throws is reported to
 * `warn` and the others are still told: a list change (a warmup, a provider's refresh, `use()`)
 * never fails because of it, and a call never throws for it.
 */
export function tellToolsChanged(
  middleware: readonly Middleware[],
  tools: readonly RegisteredTool[],
  warn: (message: string) => void,
): void {
  for (const each of middleware) {
    if (!each.onToolsChanged) continue;
    try {
      each.onToolsChanged(tools);
    } catch (error) {
      warn(
        `middleware "${String(each.name)}" (${String(each.phase)}) onToolsChanged threw: ${thrownMessage(error)}; it may act on an old tool list until it is fixed`,
      );
    }
  }
}
