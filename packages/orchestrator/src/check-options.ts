import { MIDDLEWARE_PHASES, type Middleware, ToolError, type ToolResult, fail } from '@toolplane/core';
import type { OrchestratorOptions } from './options.js';
import type { CallOptions } from './options.js';
import type { ProviderOptions, ToolRoute } from './registry/registry.js';

type Rule = 'positive' | 'atLeastOne' | 'nonNegative';

const RULES: Record<Rule, { test: (value: number) => boolean; text: string }> = {
  positive: { test: (value) => value > 0, text: 'a positive number' },
  atLeastOne: { test: (value) => value >= 1, text: 'a number of at least 1' },
  nonNegative: { test: (value) => value >= 0, text: 'a number of 0 or more' },
};

/** Throws `CONFIG_INVALID` unless `value` is undefined or a number the rule allows (never NaN). */
function number(where: string, value: unknown, rule: Rule): void {
  if (value === undefined) return;
  const { test, text } = RULES[rule];
  if (typeof value === 'number' && test(value)) return;
  const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? typeof value);
  throw new ToolError('CONFIG_INVALID', `${where} must be ${text}; got ${shown}`);
}

/**
 * Checks the numbers of the orchestrator's options, so that a NaN, a string or a zero cannot
 * turn into a deadline that never fires, a queue that never runs or a retry loop without end.
 */
export function checkOrchestratorOptions(options: OrchestratorOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new ToolError('CONFIG_INVALID', 'createOrchestrator options must be an object');
  number('timeoutMs', options.timeoutMs, 'positive');
  number('maxConcurrency', options.maxConcurrency, 'atLeastOne');
  for (const [name, queue] of Object.entries(options.queues ?? {}))
    number(`queues.${name}.maxConcurrency`, queue?.maxConcurrency, 'atLeastOne');
  number('warmupConcurrency', options.warmupConcurrency, 'atLeastOne');
  number('startTimeoutMs', options.startTimeoutMs, 'positive');
  number('closeTimeoutMs', options.closeTimeoutMs, 'positive');
  number('accountingCapacity', options.accountingCapacity, 'nonNegative');
  number('retry.maxAttempts', options.retry?.maxAttempts, 'atLeastOne');
  number('retry.baseDelayMs', options.retry?.baseDelayMs, 'nonNegative');
  number('retry.maxDelayMs', options.retry?.maxDelayMs, 'nonNegative');
  if (options.cache) number('cache.maxEntries', options.cache.maxEntries, 'atLeastOne');
  const nodes: unknown =
    typeof options.validation === 'object' ? options.validation?.maxSchemaNodes : undefined;
  if (
    nodes !== undefined &&
    !(nodes === Number.POSITIVE_INFINITY || (Number.isSafeInteger(nodes) && (nodes as number) > 0))
  ) {
    throw new ToolError(
      'CONFIG_INVALID',
      `validation.maxSchemaNodes must be a positive integer (or Infinity for no bound); got ${typeof nodes === 'number' ? String(nodes) : (JSON.stringify(nodes) ?? typeof nodes)}`,
    );
  }
  if (options.output) {
    number('output.maxBytes', options.output.maxBytes, 'positive');
    number('output.maxTokens', options.output.maxTokens, 'positive');
    number('output.maxMediaBytes', options.output.maxMediaBytes, 'nonNegative');
    number('output.maxStoredBytes', options.output.maxStoredBytes, 'positive');
    number('output.ttlMs', options.output.ttlMs, 'positive');
  }
  if (options.contextBudget) {
    number('contextBudget.maxTokensPerSession', options.contextBudget.maxTokensPerSession, 'nonNegative');
    number('contextBudget.bytesPerToken', options.contextBudget.bytesPerToken, 'positive');
    number('contextBudget.maxSessions', options.contextBudget.maxSessions, 'atLeastOne');
  }
}

/** Checks the options given at `register()`: an object, positive numbers, a queue name, an aliases map. */
export function checkProviderOptions(namespace: string, options: ProviderOptions): void {
  const where = `register("${namespace.slice(0, 100)}")`;
  if (!isPlainObject(options)) {
    throw new ToolError(
      'CONFIG_INVALID',
      `${where} options must be an object { timeoutMs?, queue?, cacheTtlMs?, aliases? } or left out; got ${kindOf(options)}`,
    );
  }
  number(`${where}.timeoutMs`, options.timeoutMs, 'positive');
  number(`${where}.cacheTtlMs`, options.cacheTtlMs, 'nonNegative');
  const queue: unknown = options.queue;
  if (queue !== undefined && (typeof queue !== 'string' || queue === '')) {
    throw new ToolError(
      'CONFIG_INVALID',
      `${where}.queue must be a non-empty string naming a queue; got ${queue === '' ? 'an empty string' : kindOf(queue)}`,
    );
  }
  if (options.aliases !== undefined && !isPlainObject(options.aliases)) {
    throw new ToolError(
      'CONFIG_INVALID',
      `${where}.aliases must be an object { alias: "public tool name" }; got ${kindOf(options.aliases)}`,
    );
  }
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What kind of value `value` is, for messages: `null`, `an array`, or its `typeof`. */
export function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** Checks what `use()` was given. */
export function checkMiddleware(middleware: Middleware): void {
  if (typeof middleware !== 'object' || middleware === null) {
    throw new ToolError(
      'CONFIG_INVALID',
      'use() needs a middleware object with a name, a phase and handle()',
    );
  }
  if (!MIDDLEWARE_PHASES.includes(middleware.phase)) {
    throw new ToolError(
      'CONFIG_INVALID',
      `middleware "${String(middleware.name)}" has unknown phase "${String(middleware.phase)}"; use one of ${MIDDLEWARE_PHASES.join(', ')}`,
    );
  }
  for (const part of ['handle', 'filterTools', 'onToolsChanged', 'close'] as const) {
    if (middleware[part] !== undefined && typeof middleware[part] !== 'function') {
      throw new ToolError(
        'CONFIG_INVALID',
        `middleware "${String(middleware.name)}" has a ${part} that is not a function; pass a function or leave it out`,
      );
    }
  }
}

/** Checks `warmup({ concurrency, signal })` (before anything changes: a bad one starts nothing and leaves nothing behind). */
export function checkWarmupOptions(options: { concurrency?: unknown; signal?: unknown }): void {
  if (typeof options !== 'object' || options === null)
    throw new ToolError('CONFIG_INVALID', 'warmup options must be an object { concurrency?, signal? }');
  number('warmup concurrency', options.concurrency, 'atLeastOne');
  const signal = options.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new ToolError(
      'CONFIG_INVALID',
      `the warmup signal must be an AbortSignal; got ${signal === null ? 'null' : typeof signal}`,
    );
  }
}

/**
 * Why a call's deadline, priority or signal cannot be used, as its failure: a deadline that is
 * not a positive number (NaN or a string would mean none at all; one check covers every source),
 * a priority that is not a finite number, a signal that is not an AbortSignal, an `onAbort` that
 * is not a function.
 */
export function callOptionsProblem(
  route: ToolRoute,
  timeoutMs: unknown,
  options: CallOptions,
): ToolResult | undefined {
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) return badTimeout(route, timeoutMs, options);
  const priority: unknown = options.priority;
  if (priority !== undefined && !(typeof priority === 'number' && Number.isFinite(priority))) {
    const shown =
      typeof priority === 'number' ? String(priority) : (JSON.stringify(priority) ?? typeof priority);
    return fail(
      'CONFIG_INVALID',
      `priority of a call to ${route.name} must be a finite number (higher runs first, default 0); got ${shown.slice(0, 100)}`,
    );
  }
  const signal: unknown = options.signal;
  if (signal !== undefined && typeof (signal as AbortSignal | null)?.addEventListener !== 'function') {
    return fail(
      'CONFIG_INVALID',
      `the signal of a call to ${route.name} must be an AbortSignal; got ${signal === null ? 'null' : typeof signal}`,
    );
  }
  const listen: unknown = options.onAbort;
  if (listen !== undefined && typeof listen !== 'function') {
    return fail(
      'CONFIG_INVALID',
      `the onAbort of a call to ${route.name} must be a function (listener) => remover; got ${listen === null ? 'null' : typeof listen}`,
    );
  }
  return undefined;
}

function badTimeout(route: ToolRoute, timeoutMs: unknown, options: CallOptions): ToolResult {
  const source =
    options.timeoutMs !== undefined
      ? 'the call options'
      : route.timeoutMs !== undefined
        ? `the tool spec or its provider's registration`
        : 'the orchestrator options';
  return fail(
    'CONFIG_INVALID',
    `timeoutMs for ${route.name} from ${source} must be a positive number of milliseconds (Infinity for none); got ${typeof timeoutMs === 'number' ? timeoutMs : (JSON.stringify(timeoutMs) ?? typeof timeoutMs)}`,
  );
}
