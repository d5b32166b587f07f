import {
  type CallMeta,
  type Middleware,
  type NextMiddleware,
  type OpNode,
  type ProgressUpdate,
  type RegisteredTool,
  type ToolCall,
  type ToolContext,
  type ToolContextInit,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  type ToolView,
  MIDDLEWARE_PHASES,
  ToolError,
  contentBytes,
  createId,
  createLocalProvider,
  fail,
  isReadOnly,
} from '@toolplane/core';
import { Accounting, type AccountingRecord, type ToolTotals } from './accounting.js';
import { createCallContext } from './call-context.js';
import { CallState } from './call-state.js';
import { DeadlineTimer } from './deadline-timer.js';
import { type OrchestratorEventName, type OrchestratorEvents, EventHub } from './events.js';
import { createProviderStep } from './execute-provider.js';
import { createBatchTool } from './internal/batch-tool.js';
import { createToolOutputTool } from './internal/tool-output-tool.js';
import { cacheMiddleware } from './middleware/cache.js';
import { contextBudgetMiddleware } from './middleware/context-budget.js';
import { hooksMiddleware } from './middleware/hooks.js';
import { rateLimitMiddleware } from './middleware/rate-limit.js';
import { sizeCapMiddleware } from './middleware/size-cap.js';
import { validationMiddleware } from './middleware/validation.js';
import type { OrchestratorOptions } from './options.js';
import { OutputStore } from './output-store.js';
import { NamedQueue } from './queue.js';
import { type ProviderEntry, type ProviderOptions, ToolRegistry } from './registry.js';
import { SessionTrees } from './session-trees.js';
import { endToolSpan, startToolSpan } from './telemetry.js';
import { type WarmupReport, warmupProviders } from './warmup.js';

/** Per-call options: a partial context plus scheduling. */
export type CallOptions = ToolContextInit & {
  /** Deadline of this call in ms (wins over tool, provider and global). */
  readonly timeoutMs?: number;
  /** Higher runs first when the queue is full (default 0). */
  readonly priority?: number;
};

const DEFAULT_TIMEOUT_MS = 300_000;
const NOOP = (): void => {};
const INTERNAL_NAMESPACE = 'toolplane';

/**
 * The registry and call pipeline. Create one with {@link createOrchestrator}.
 */
export class ToolsOrchestrator {
  private readonly options: OrchestratorOptions;
  private readonly registry = new ToolRegistry();
  private readonly events = new EventHub();
  private readonly timer: DeadlineTimer;
  private readonly queues = new Map<string, NamedQueue>();
  private readonly inflight = new Map<string, CallState>();
  private readonly middleware: Middleware[] = [];
  private readonly builtins: Middleware[] = [];
  private readonly accountingBook: Accounting;
  private readonly trees = new SessionTrees();
  private readonly store: OutputStore | undefined;
  private readonly terminal: NextMiddleware;
  private readonly budget: ReturnType<typeof contextBudgetMiddleware> | undefined;
  private readonly cache: ReturnType<typeof cacheMiddleware> | undefined;
  private dispatch: NextMiddleware;
  private raceDeadline = false;
  private pending = false;
  private warming: Promise<void> | undefined;
  private closed = false;
  private specsCache: readonly ToolSpec[] | undefined;
  private refreshTimers = new Map<string, Promise<void>>();

  constructor(options: OrchestratorOptions = {}) {
    this.options = options;
    this.timer = new DeadlineTimer(options.timers);
    this.accountingBook = new Accounting(options.accountingCapacity);
    for (const [name, queueOptions] of Object.entries(options.queues ?? {})) {
      this.queues.set(name, new NamedQueue(name, queueOptions));
    }
    if (!this.queues.has('default') && options.maxConcurrency !== undefined) {
      this.queues.set('default', new NamedQueue('default', { maxConcurrency: options.maxConcurrency }));
    }
    const now = (): number => this.timer.now();
    const stateOf = (callId: string): CallState | undefined => this.inflight.get(callId);
    this.terminal = createProviderStep({
      stateOf,
      queueFor: (name) => this.queueFor(name),
      now,
      retry: {
        maxAttempts: Math.max(1, options.retry?.maxAttempts ?? 2),
        baseDelayMs: options.retry?.baseDelayMs ?? 200,
        maxDelayMs: options.retry?.maxDelayMs ?? 2_000,
      },
    });
    if (options.hooks) this.builtins.push(hooksMiddleware(options.hooks));
    if (options.rateLimit) this.builtins.push(rateLimitMiddleware(options.rateLimit, now));
    if (options.validation !== false) {
      this.builtins.push(
        validationMiddleware((tool, message) =>
          this.events.emit('warning', {
            tool,
            message: `input schema of ${tool} does not compile, arguments are not validated: ${message}`,
          }),
        ),
      );
    }
    if (options.cache !== false) {
      this.cache = cacheMiddleware(options.cache ?? {}, { stateOf, now });
      this.builtins.push(this.cache);
    }
    if (options.contextBudget) {
      this.budget = contextBudgetMiddleware(options.contextBudget);
      this.builtins.push(this.budget);
    }
    const output = options.output === false ? undefined : (options.output ?? {});
    if (output) {
      this.store = new OutputStore({
        ...(output.dir ? { dir: output.dir } : {}),
        ...(output.ttlMs ? { ttlMs: output.ttlMs } : {}),
      });
      this.builtins.push(
        sizeCapMiddleware(output, { store: this.store, stateOf, exempt: new Set(['tool_output']) }),
      );
    }
    this.dispatch = this.compose();
    if (options.internalTools !== false) this.registerInternalTools(output?.maxBytes ?? 64 * 1024);
  }

  /** Adds a provider; it starts on the next `warmup()` (or the first call). */
  register(provider: ToolProvider, options: ProviderOptions = {}): this {
    if (this.closed)
      throw new ToolError('PROVIDER_UNAVAILABLE', 'the orchestrator is closed; create a new one');
    const entry: ProviderEntry = { provider, options, state: 'pending', specs: [] };
    this.registry.add(entry);
    this.pending = true;
    return this;
  }

  /** Adds middleware to its phase (after the built-ins and earlier middleware of that phase). */
  use(middleware: Middleware): this {
    if (!MIDDLEWARE_PHASES.includes(middleware.phase)) {
      throw new Error(
        `middleware "${middleware.name}" has unknown phase "${String(middleware.phase)}"; use one of ${MIDDLEWARE_PHASES.join(', ')}`,
      );
    }
    this.middleware.push(middleware);
    this.dispatch = this.compose();
    middleware.onToolsChanged?.(this.registry.all());
    return this;
  }

  /** Another name for a tool (for renamed tools, or names a model keeps using). */
  alias(alias: string, target: string): this {
    this.registry.alias(alias, target);
    return this;
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends OrchestratorEventName>(
    event: E,
    listener: (payload: OrchestratorEvents[E]) => void,
  ): () => void {
    return this.events.on(event, listener);
  }

  /**
   * Starts every pending provider, `concurrency` at a time. A provider that fails is reported
   * (and its tools are absent) while the others serve.
   */
  async warmup(options: { concurrency?: number; signal?: AbortSignal } = {}): Promise<WarmupReport[]> {
    this.pending = false;
    const previous = this.warming;
    const run = (async () => {
      await previous;
      return this.startPending(options);
    })();
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.warming = settled;
    void settled.then(() => {
      if (this.warming === settled) this.warming = undefined;
    });
    return run;
  }

  private async startPending(options: {
    concurrency?: number;
    signal?: AbortSignal;
  }): Promise<WarmupReport[]> {
    const pendingEntries = this.registry.entries.filter((entry) => entry.state === 'pending');
    const reports = await warmupProviders(pendingEntries, {
      concurrency: options.concurrency ?? this.options.warmupConcurrency ?? 4,
      startTimeoutMs: this.options.startTimeoutMs ?? 120_000,
      ...(options.signal ? { signal: options.signal } : {}),
      onFailed: (provider, error) => this.events.emit('provider_failed', { provider, error }),
      onChanged: (entry) => this.scheduleRefresh(entry),
    });
    this.rebuild();
    return reports;
  }

  /** Public specs of every tool (narrowed by middleware `filterTools` when a view is given). */
  listTools(view?: Partial<ToolView>): readonly ToolSpec[] {
    if (!view) {
      this.specsCache ??= this.registry.all().map((route) => route.spec);
      return this.specsCache;
    }
    return this.listRegistered(view).map((tool) => tool.spec);
  }

  /** Registered tools with their provider (narrowed by middleware when a view is given). */
  listRegistered(view?: Partial<ToolView>): readonly RegisteredTool[] {
    let tools: readonly RegisteredTool[] = this.registry.all();
    if (!view) return tools;
    const full: ToolView = {
      principal: view.principal ?? {},
      session: view.session ?? { id: 'default', depth: 0 },
    };
    for (const middleware of [...this.builtins, ...this.middleware]) {
      if (middleware.filterTools) tools = middleware.filterTools(tools, full);
    }
    return tools;
  }

  /** Whether a name resolves to a tool. */
  hasTool(name: string): boolean {
    return this.registry.resolve(name) !== undefined;
  }

  /** The combined instructions of every ready provider and tool, for the system prompt. */
  instructions(): string {
    const sections: string[] = [];
    for (const entry of this.registry.entries) {
      if (entry.state !== 'ready') continue;
      const text = entry.provider.instructions?.()?.trim();
      if (text) sections.push(`## ${entry.provider.namespace}\n${text}`);
    }
    const toolNotes = this.registry
      .all()
      .filter((route) => route.spec.instructions)
      .map((route) => `- ${route.name}: ${route.spec.instructions}`);
    if (toolNotes.length > 0) sections.push(`## Tool notes\n${toolNotes.join('\n')}`);
    return sections.join('\n\n');
  }

  /** Providers and their state. */
  providers(): Array<{
    namespace: string;
    kind: string;
    state: ProviderEntry['state'];
    tools: number;
    error?: string;
  }> {
    return this.registry.entries.map((entry) => ({
      namespace: entry.provider.namespace,
      kind: entry.provider.kind,
      state: entry.state,
      tools: entry.specs.length,
      ...(entry.error ? { error: entry.error } : {}),
    }));
  }

  /**
   * Runs one call through the pipeline. Never throws: every failure is a result with a stable
   * error code.
   *
   * @example
   * const result = await orchestrator.call('math__add', { a: 1, b: 2 }, { session: { id: 's1' } });
   */
  async call(name: string, args: unknown, options: CallOptions = {}): Promise<ToolResult> {
    if (this.pending) await this.warmup();
    else if (this.warming) await this.warming;
    const startedAt = this.timer.now();
    const callId = options.callId ?? createId('call');
    const sessionId = options.session?.id ?? 'default';
    if (this.closed)
      return this.early(
        name,
        callId,
        sessionId,
        startedAt,
        fail('PROVIDER_UNAVAILABLE', 'the orchestrator is closed'),
      );
    const route = this.registry.resolve(name);
    if (!route) return this.early(name, callId, sessionId, startedAt, this.notFound(name));
    const parsedArgs = normalizeArgs(args);
    if (typeof parsedArgs === 'string') {
      return this.early(
        route.name,
        callId,
        sessionId,
        startedAt,
        fail('INVALID_ARGUMENTS', `arguments for ${route.name} ${parsedArgs}`),
      );
    }
    const state = new CallState(route, options.priority ?? 0);
    this.inflight.set(callId, state);
    const timeoutMs = options.timeoutMs ?? route.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = startedAt + timeoutMs;
    const op =
      this.options.operationTree === false
        ? undefined
        : this.trees.begin(sessionId, callId, route.name, startedAt);
    const events = this.events;
    const userProgress = options.progress;
    const progress =
      userProgress || events.has('tool_progress')
        ? (update: ProgressUpdate): void => {
            if (state.stopReason) return;
            events.emit('tool_progress', { callId, tool: route.name, sessionId, update });
            userProgress?.(update);
          }
        : NOOP;
    const session = options.session;
    const traceInit = options.trace;
    const ctx = createCallContext(
      state,
      callId,
      {
        principal: options.principal ?? NO_PRINCIPAL,
        session: session
          ? { depth: session.depth ?? 0, ...session, id: sessionId }
          : { id: sessionId, depth: 0 },
        trace: traceInit
          ? {
              originId: traceInit.originId ?? sessionId,
              ...traceInit,
              callPath: [...(traceInit.callPath ?? []), route.name],
            }
          : { originId: sessionId, callPath: [route.name] },
        services: options.services ?? this.options.services ?? NO_SERVICES,
        progress,
      },
      deadline,
      op,
    );
    if (events.has('tool_started')) {
      events.emit('tool_started', {
        callId,
        tool: route.name,
        provider: route.provider.namespace,
        sessionId,
        args: parsedArgs,
      });
    }
    const span = startToolSpan(route.name, callId, route.provider.namespace);
    const callerSignal = options.signal;
    let onCallerAbort: (() => void) | undefined;
    if (callerSignal) {
      if (callerSignal.aborted) state.stop(cancelledBy(callerSignal));
      else {
        onCallerAbort = () => state.stop(cancelledBy(callerSignal));
        callerSignal.addEventListener('abort', onCallerAbort, { once: true });
      }
    }
    const deadlineEntry = this.timer.add(deadline, () =>
      state.stop(
        new ToolError(
          'TIMEOUT',
          `${route.name} did not finish within ${timeoutMs} ms; it was stopped. Try a smaller request or a longer timeout.`,
        ),
      ),
    );
    let result: ToolResult;
    if (state.stopReason) {
      result = {
        ok: false,
        error: {
          code: state.stopReason.code,
          message: state.stopReason.message,
          retryable: state.stopReason.retryable,
        },
      };
    } else if (!this.raceDeadline) {
      // only built-in steps, none of which can hang: a stop settles the provider step itself
      result = await this.dispatch({ tool: route, args: parsedArgs, ctx }).catch((error: unknown) =>
        fail('INTERNAL', `the pipeline failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    } else {
      // user code (middleware, hooks) may hang: the deadline must win even then
      result = await new Promise<ToolResult>((resolve) => {
        state.settleCall = resolve;
        this.dispatch({ tool: route, args: parsedArgs, ctx }).then(resolve, (error: unknown) =>
          resolve(
            fail(
              'INTERNAL',
              `the pipeline failed: ${error instanceof Error ? error.message : String(error)}`,
            ),
          ),
        );
      });
    }
    state.settleCall = undefined;
    this.timer.remove(deadlineEntry);
    if (onCallerAbort) callerSignal?.removeEventListener('abort', onCallerAbort);
    this.inflight.delete(callId);
    const endedAt = this.timer.now();
    const meta: Mutable<CallMeta> = {
      callId,
      tool: route.name,
      provider: route.provider.namespace,
      kind: route.provider.kind,
      latencyMs: endedAt - startedAt,
      queueWaitMs: state.queueWaitMs,
      bytesIn: jsonBytes(parsedArgs),
      bytesOut: result.content ? contentBytes(result.content) : 0,
      cached: state.cached,
      attempts: state.attempts,
    };
    if (state.truncated) meta.truncated = state.truncated;
    const final: ToolResult = withMeta(result, meta);
    if (op) {
      op.node.endedAt = endedAt;
      op.node.status = result.ok ? 'ok' : result.error.code === 'CANCELLED' ? 'cancelled' : 'error';
      if (!result.ok) op.node.attributes.code = result.error.code;
    }
    endToolSpan(span, result, state.cached);
    this.finish(final, meta, sessionId, startedAt);
    return final;
  }

  /** The operation tree of a session. */
  operationTree(sessionId = 'default'): OpNode | undefined {
    return this.trees.get(sessionId);
  }

  /** Forgets a session's tree and context budget. */
  endSession(sessionId: string): void {
    this.trees.end(sessionId);
    this.budget?.reset(sessionId);
  }

  /** Per-call records and per-tool totals. */
  accounting(): { records: AccountingRecord[]; totals: Record<string, ToolTotals> } {
    return { records: this.accountingBook.records(), totals: Object.fromEntries(this.accountingBook.totals) };
  }

  /** Tokens of output a session has received (with a context budget). */
  budgetUsed(sessionId: string): number | undefined {
    return this.budget?.used(sessionId);
  }

  /** Drops every cached response. */
  clearCache(): void {
    this.cache?.clear();
  }

  /** Calls in flight and waiting per queue. */
  stats(): {
    inflight: number;
    queues: Record<string, { running: number; waiting: number; maxConcurrency: number }>;
  } {
    const queues: Record<string, { running: number; waiting: number; maxConcurrency: number }> = {};
    for (const [name, queue] of this.queues) {
      queues[name] = { running: queue.running, waiting: queue.waiting, maxConcurrency: queue.maxConcurrency };
    }
    return { inflight: this.inflight.size, queues };
  }

  /** Cancels every call waiting or running; each returns `CANCELLED`. */
  cancel(reason = 'cancelled by orchestrator.cancel()'): void {
    const error = new ToolError('CANCELLED', reason);
    for (const state of [...this.inflight.values()]) state.stop(error);
    for (const queue of this.queues.values()) queue.cancelWaiting();
  }

  /** Cancels everything, closes every provider and middleware, and removes stored outputs. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel('the orchestrator is closing');
    this.timer.clear();
    const closing: Array<Promise<void>> = [];
    for (const entry of this.registry.entries) {
      entry.unsubscribe?.();
      if (entry.state !== 'closed')
        closing.push(Promise.resolve(entry.provider.close?.()).catch(() => undefined));
      entry.state = 'closed';
    }
    for (const middleware of this.middleware)
      closing.push(Promise.resolve(middleware.close?.()).catch(() => undefined));
    await Promise.all(closing);
    await this.store?.close();
  }

  /** Runs a call on behalf of a running tool (batch, child sessions): same session, principal and signal. */
  callFrom(parent: ToolContext, name: string, args: unknown): Promise<ToolResult> {
    return this.call(name, args, {
      principal: parent.principal,
      session: parent.session,
      trace: { ...parent.trace, parentId: parent.callId },
      services: parent.services,
      signal: parent.signal,
      ...(parent.deadline ? { timeoutMs: Math.max(1, parent.deadline - this.timer.now()) } : {}),
    });
  }

  private compose(): NextMiddleware {
    this.raceDeadline =
      this.options.hooks !== undefined || this.middleware.some((middleware) => middleware.handle);
    const ordered: Middleware[] = [];
    for (const phase of MIDDLEWARE_PHASES) {
      for (const middleware of this.builtins) if (middleware.phase === phase) ordered.push(middleware);
      for (const middleware of this.middleware) if (middleware.phase === phase) ordered.push(middleware);
    }
    let next: NextMiddleware = this.terminal;
    for (let i = ordered.length - 1; i >= 0; i--) {
      const middleware = ordered[i] as Middleware;
      if (!middleware.handle) continue;
      const inner = next;
      next = (call: ToolCall) => (middleware.handle as NonNullable<Middleware['handle']>)(call, inner);
    }
    return next;
  }

  private queueFor(name: string | undefined): NamedQueue | undefined {
    if (name === undefined) return this.queues.get('default');
    let queue = this.queues.get(name);
    if (!queue) {
      // a queue named by a tool but not configured: its own lane, unlimited, so it never blocks others
      queue = new NamedQueue(name);
      this.queues.set(name, queue);
    }
    return queue;
  }

  private rebuild(): void {
    this.registry.rebuild();
    this.specsCache = undefined;
    const all = this.registry.all();
    for (const middleware of this.middleware) middleware.onToolsChanged?.(all);
    this.events.emit('tools_changed', { count: all.length });
  }

  private scheduleRefresh(entry: ProviderEntry): void {
    const namespace = entry.provider.namespace;
    if (this.refreshTimers.has(namespace) || this.closed) return;
    const run = (async () => {
      await Promise.resolve();
      try {
        entry.specs = await entry.provider.listTools();
        if (entry.state === 'failed') entry.state = 'ready';
      } catch (error) {
        this.events.emit('warning', {
          provider: namespace,
          message: `refreshing the tool list failed: ${String(error)}`,
        });
      } finally {
        this.refreshTimers.delete(namespace);
      }
      if (!this.closed) this.rebuild();
    })();
    this.refreshTimers.set(namespace, run);
  }

  private registerInternalTools(maxBytes: number): void {
    const tools = [
      createBatchTool({
        callFrom: (parent, name, args) => this.callFrom(parent, name, args),
        describe: (name) => {
          const route = this.registry.resolve(name);
          return route ? { name: route.name, readOnly: isReadOnly(route.spec) } : undefined;
        },
      }),
    ];
    if (this.store) tools.push(createToolOutputTool(this.store, maxBytes));
    this.register(
      createLocalProvider({ namespace: INTERNAL_NAMESPACE, kind: 'internal', prefixNames: false, tools }),
    );
  }

  private notFound(name: string): ToolResult {
    const failed = this.registry.entries.find(
      (entry) => entry.state === 'failed' && name.startsWith(`${entry.provider.namespace}__`),
    );
    if (failed) {
      return fail(
        'PROVIDER_UNAVAILABLE',
        `provider "${failed.provider.namespace}" failed to start (${failed.error}); its tools are unavailable`,
      );
    }
    const suggestions = this.registry.suggest(name);
    const hint =
      suggestions.length > 0
        ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?`
        : ' List the tools to see what exists.';
    return fail('TOOL_NOT_FOUND', `there is no tool named "${name}".${hint}`, { details: { suggestions } });
  }

  private early(
    tool: string,
    callId: string,
    sessionId: string,
    startedAt: number,
    result: ToolResult,
  ): ToolResult {
    const meta: CallMeta = {
      callId,
      tool,
      provider: '',
      kind: '',
      latencyMs: this.timer.now() - startedAt,
      queueWaitMs: 0,
      bytesIn: 0,
      bytesOut: 0,
      cached: false,
      attempts: 0,
    };
    const final = withMeta(result, meta);
    this.finish(final, meta, sessionId, startedAt);
    return final;
  }

  private finish(result: ToolResult, meta: CallMeta, sessionId: string, startedAt: number): void {
    this.accountingBook.record(meta, sessionId, startedAt, result.ok ? undefined : result.error.code);
    if (this.events.has('tool_finished')) {
      this.events.emit('tool_finished', {
        callId: meta.callId,
        tool: meta.tool,
        sessionId,
        ok: result.ok,
        ...(result.ok ? {} : { error: result.error }),
        meta,
      });
    }
  }
}

/**
 * Creates an orchestrator.
 *
 * @example
 * const orchestrator = createOrchestrator({ timeoutMs: 30_000, queues: { web: { maxConcurrency: 4 } } });
 * orchestrator.register(createLocalProvider({ namespace: 'math', tools: [add] }));
 * const result = await orchestrator.call('math__add', { a: 1, b: 2 });
 */
export function createOrchestrator(options: OrchestratorOptions = {}): ToolsOrchestrator {
  return new ToolsOrchestrator(options);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const NO_PRINCIPAL = Object.freeze({});
const NO_SERVICES = Object.freeze({});

function withMeta(result: ToolResult, meta: CallMeta): ToolResult {
  if (result.ok) {
    return result.structured === undefined
      ? { ok: true, content: result.content, meta }
      : { ok: true, content: result.content, structured: result.structured, meta };
  }
  return result.content === undefined
    ? { ok: false, error: result.error, meta }
    : { ok: false, error: result.error, content: result.content, meta };
}

function normalizeArgs(args: unknown): Record<string, unknown> | string {
  if (args === undefined || args === null) return {};
  if (typeof args === 'string') {
    // models sometimes send the arguments as a JSON string
    const trimmed = args.trim();
    if (trimmed === '') return {};
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      return 'must be a JSON object; got a string that is not JSON';
    }
    return 'must be a JSON object; got a JSON string that is not an object';
  }
  if (typeof args !== 'object') return `must be a JSON object; got ${typeof args}`;
  if (Array.isArray(args)) return 'must be a JSON object; got an array';
  return args as Record<string, unknown>;
}

function jsonBytes(args: Record<string, unknown>): number {
  for (const _key in args) {
    try {
      return Buffer.byteLength(JSON.stringify(args));
    } catch {
      return 0;
    }
  }
  return 2;
}

function cancelledBy(signal: AbortSignal): ToolError {
  const reason: unknown = signal.reason;
  if (ToolError.isInstance(reason)) return reason;
  const text =
    reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the caller aborted';
  return new ToolError('CANCELLED', `the call was cancelled: ${text}`);
}
