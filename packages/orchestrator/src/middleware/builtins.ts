import type { Middleware, ToolContext } from '@toolplane/core';
import type { CallState } from '../call/call-state.js';
import { cacheMiddleware } from './cache.js';
import { contextBudgetMiddleware } from './context-budget.js';
import { hooksMiddleware } from './hooks.js';
import { rateLimitMiddleware } from './rate-limit.js';
import { sizeCapMiddleware } from './size-cap.js';
import { validationMiddleware } from './validation.js';
import type { OrchestratorOptions } from '../options.js';
import { OutputStore } from '../output/output-store.js';

/** The orchestrator's own middleware, as its options ask for. */
export interface Builtins {
  readonly middleware: readonly Middleware[];
  /** The PreToolUse/PostToolUse hooks, when the options have some. */
  readonly hooks: Middleware | undefined;
  readonly cache: ReturnType<typeof cacheMiddleware> | undefined;
  readonly budget: ReturnType<typeof contextBudgetMiddleware> | undefined;
  readonly store: OutputStore | undefined;
  /** The size cap in bytes (what `tool_output` answers are cut to). */
  readonly maxBytes: number;
}

/** Creates the built-in middleware: hooks, rate limit, validation, cache, budget, size cap. */
export function createBuiltins(
  options: OrchestratorOptions,
  deps: {
    stateOf: (ctx: ToolContext) => CallState | undefined;
    now: () => number;
    warn: (tool: string, message: string) => void;
  },
): Builtins {
  const middleware: Middleware[] = [];
  const hooks = options.hooks ? hooksMiddleware(options.hooks, deps.stateOf) : undefined;
  if (hooks) middleware.push(hooks);
  if (options.rateLimit) middleware.push(rateLimitMiddleware(options.rateLimit, deps.now));
  if (options.validation !== false) {
    const maxSchemaNodes =
      typeof options.validation === 'object' ? options.validation?.maxSchemaNodes : undefined;
    middleware.push(validationMiddleware(deps.warn, maxSchemaNodes));
  }
  let cache: Builtins['cache'];
  if (options.cache !== false) {
    cache = cacheMiddleware(options.cache ?? {}, { stateOf: deps.stateOf, now: deps.now });
    middleware.push(cache);
  }
  let budget: Builtins['budget'];
  if (options.contextBudget) {
    budget = contextBudgetMiddleware(options.contextBudget, deps.stateOf);
    middleware.push(budget);
  }
  const output = options.output === false ? undefined : (options.output ?? {});
  let store: OutputStore | undefined;
  if (output) {
    store = new OutputStore({
      ...(output.dir ? { dir: output.dir } : {}),
      ...(output.ttlMs ? { ttlMs: output.ttlMs } : {}),
      now: deps.now,
    });
    middleware.push(
      sizeCapMiddleware(output, { store, stateOf: deps.stateOf, exempt: new Set(['tool_output']) }),
    );
  }
  return { middleware, hooks, cache, budget, store, maxBytes: output?.maxBytes ?? 64 * 1024 };
}
