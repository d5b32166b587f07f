import {
  type CallMeta,
  type Middleware,
  type NextMiddleware,
  type OpNode,
  type RegisteredTool,
  type ToolContext,
  type ToolContextInit,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  type ToolView,
  ToolError,
  fail,
  isReadOnly,
} from '@toolplane/core';
import { Accounting, type AccountingRecord, type ToolTotals } from './accounting.js';
import { createBuiltins } from './builtins.js';
import { admitCall } from './call-admission.js';
import { CALL_STATE, createCallContext } from './call-context.js';
import { CallIds, takenIdMessage } from './call-ids.js';
import { NOOP, callMeta, contextFields, progressReporter, withMeta } from './call-values.js';
import { IndexedList } from './indexed-list.js';
import { pipelineFailure, runPipeline } from './run-pipeline.js';
import { checkMiddleware, checkOrchestratorOptions } from './check-options.js';
import { recordedSessionId } from './check-caller.js';
import { closeAll } from './close-within.js';
import { composeMiddleware } from './compose.js';
import { CallState } from './call-state.js';
import { DeadlineTimer } from './deadline-timer.js';
import { type OrchestratorEventName, type OrchestratorEvents, EventHub } from './events.js';
import { createProviderStep } from './execute-provider.js';
import { createInternalProvider } from './internal/internal-provider.js';
import { earlyMeta, recordCall } from './record-call.js';
import type { cacheMiddleware } from './middleware/cache.js';
import type { contextBudgetMiddleware } from './middleware/context-budget.js';
import type { OrchestratorOptions } from './options.js';
import type { OutputStore } from './output-store.js';
import type { OrchestratorStats } from './queue.js';
import { QueueSet } from './queue-set.js';
import type { ProviderOptions } from './registry.js';
import { type ProviderState, combinedInstructions, providerStates } from './registry-views.js';
import { SessionTrees } from './session-trees.js';
import { endToolSpan, startToolSpan } from './telemetry.js';
import { ToolCatalog } from './tool-catalog.js';
import { tellToolsChanged } from './tools-changed.js';
import type { WarmupReport } from './warmup.js';

/** Per-call options: a partial context plus scheduling. */
export type CallOptions = ToolContextInit & {
  /** Deadline of this call in ms (wins over tool, provider and global). */
  readonly timeoutMs?: number;
  /** Higher runs first when the queue is full (default 0). */
  readonly priority?: number;
};

const DEFAULT_TIMEOUT_MS = 300_000;
const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;
const INTERNAL_NAMESPACE = 'toolplane';

/**
 * The registry and call pipeline. Create one with {@link createOrchestrator}.
 */
export class ToolsOrchestrator {
  private readonly options: OrchestratorOptions;
  private readonly events = new EventHub();
  private readonly timer: DeadlineTimer;
  private readonly queues: QueueSet;
  private readonly inflight = new IndexedList<CallState>();
  private readonly callIds = new CallIds(
    (callId) => this.inflight.find((state) => state.callId === callId) !== undefined,
  );
  private readonly middleware: Middleware[] = [];
  private readonly builtins: readonly Middleware[];
  private readonly accountingBook: Accounting;
  private readonly trees = new SessionTrees();
  private readonly store: OutputStore | undefined;
  private readonly terminal: NextMiddleware;
  private readonly budget: ReturnType<typeof contextBudgetMiddleware> | undefined;
  private readonly cache: ReturnType<typeof cacheMiddleware> | undefined;
  private readonly catalog: ToolCatalog;
  private dispatch: NextMiddleware;
  private raceDeadline = false;
  private closed = false;

  constructor(options: OrchestratorOptions = {}) {
    checkOrchestratorOptions(options);
    this.options = options;
    this.timer = new DeadlineTimer(options.timers);
    this.accountingBook = new Accounting(options.accountingCapacity);
    this.queues = new QueueSet(options);
    const now = (): number => this.timer.now();
    const stateOf = (ctx: ToolContext): CallState | undefined => this.stateOf(ctx);
    this.terminal = createProviderStep({
      stateOf,
      queueFor: (name) => this.queues.queueFor(name),
      now,
      retry: {
        maxAttempts: Math.max(1, options.retry?.maxAttempts ?? 2),
        baseDelayMs: options.retry?.baseDelayMs ?? 200,
        maxDelayMs: options.retry?.maxDelayMs ?? 2_000,
      },
    });
    const builtins = createBuiltins(options, {
      stateOf,
      now,
      warn: (tool, message) => this.events.emit('warning', { tool, message }),
    });
    this.builtins = builtins.middleware;
    this.cache = builtins.cache;
    this.budget = builtins.budget;
    this.store = builtins.store;
    this.catalog = new ToolCatalog({
      options,
      events: this.events,
      builtins: this.builtins,
      middleware: this.middleware,
      closed: () => this.closed,
    });
    this.dispatch = this.compose();
    if (options.internalTools !== false) this.registerInternalTools(builtins.maxBytes);
  }

  /** Adds a provider; it starts on the next `warmup()` (or the first call). */
  register(provider: ToolProvider, options: ProviderOptions = {}): this {
    this.catalog.register(provider, options);
    return this;
  }

  /** Adds middleware to its phase (after the built-ins and earlier middleware of that phase). */
  use(middleware: Middleware): this {
    checkMiddleware(middleware);
    this.middleware.push(middleware);
    this.dispatch = this.compose();
    tellToolsChanged([middleware], this.catalog.registry.all(), (message) =>
      this.events.emit('warning', { message }),
    );
    return this;
  }

  /** Another name for a tool (for renamed tools, or names a model keeps using). */
  alias(alias: string, target: string): this {
    this.catalog.registry.alias(alias, target);
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
    return this.catalog.warmup(options);
  }

  /** Public specs of every tool (narrowed by middleware `filterTools` when a view is given). */
  listTools(view?: Partial<ToolView>): readonly ToolSpec[] {
    return this.catalog.listTools(view);
  }

  /**
   * Registered tools with their provider (narrowed by middleware when a view is given). Throws
   * `INVALID_ARGUMENTS` for a view that is not one (a session id that is no session id), and
   * `CONFIG_INVALID` naming a middleware whose `filterTools` throws or answers garbage.
   */
  listRegistered(view?: Partial<ToolView>): readonly RegisteredTool[] {
    return this.catalog.listRegistered(view);
  }

  /** Whether a name resolves to a tool. */
  hasTool(name: string): boolean {
    return this.catalog.registry.resolve(name) !== undefined;
  }

  /** The combined instructions of every ready provider and tool, for the system prompt. */
  instructions(): string {
    return combinedInstructions(this.catalog.registry);
  }

  /** Providers and their state. */
  providers(): ProviderState[] {
    return providerStates(this.catalog.registry);
  }

  /**
   * Runs one call through the pipeline. Never throws: every failure has a stable error code.
   *
   * @example
   * const result = await orchestrator.call('math__add', { a: 1, b: 2 }, { session: { id: 's1' } });
   */
  async call(name: string, args: unknown, options: CallOptions = {}): Promise<ToolResult> {
    const ready = this.catalog.whenReady();
    if (ready) await ready;
    const startedAt = this.timer.now();
    // options that are not an object (or a callId that is not one) fail in admitCall below
    const given: CallOptions = typeof options === 'object' && options !== null ? options : {};
    const picked = this.callIds.pick(given.callId);
    const callId = picked.callId;
    const sessionId = recordedSessionId(given.session);
    if (this.closed)
      return this.early(
        name,
        callId,
        sessionId,
        startedAt,
        fail('PROVIDER_UNAVAILABLE', 'the orchestrator is closed'),
      );
    const admitted = admitCall(
      this.catalog.registry,
      name,
      args,
      options,
      this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    if ('result' in admitted) {
      const { tool, result, totalsKey } = admitted;
      return this.early(tool, callId, sessionId, startedAt, result, totalsKey);
    }
    const { route, args: parsedArgs, bytesIn, timeoutMs } = admitted;
    if (picked.taken !== undefined) {
      const refusal = fail('INVALID_ARGUMENTS', takenIdMessage(picked.taken, route.name));
      return this.early(route.name, callId, sessionId, startedAt, refusal);
    }
    const state = new CallState(route, callId, options.priority ?? 0);
    this.inflight.add(state);
    this.callIds.hold(callId, picked.chosen);
    const deadline = startedAt + timeoutMs;
    const op =
      this.options.operationTree === false
        ? undefined
        : this.trees.begin(sessionId, callId, route.name, startedAt);
    state.opRecord = op;
    const events = this.events;
    const progress = progressReporter(events, state, sessionId, options.progress);
    const ctx = createCallContext(
      state,
      callId,
      contextFields(options, route.name, sessionId, this.options.services, progress),
      deadline,
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
    const unfollow = options.signal ? state.followCaller(options.signal) : undefined;
    const deadlineEntry = this.timer.add(deadline, () =>
      state.stop(
        new ToolError(
          'TIMEOUT',
          `${route.name} did not finish within ${timeoutMs} ms; it was stopped. Try a smaller request or a longer timeout.`,
          { details: { timeoutMs } },
        ),
      ),
    );
    let result: ToolResult;
    try {
      result = await runPipeline(this.dispatch, this.raceDeadline, state, {
        tool: route,
        args: parsedArgs,
        ctx,
      });
    } catch (error) {
      result = pipelineFailure(error);
    }
    state.settleCall = undefined;
    state.finished = true;
    this.timer.remove(deadlineEntry);
    unfollow?.();
    this.inflight.delete(state);
    this.callIds.release(callId, picked.chosen);
    const endedAt = this.timer.now();
    const meta = callMeta(callId, route, state, endedAt - startedAt, bytesIn, result);
    const final: ToolResult = withMeta(result, meta);
    op?.end(result, endedAt);
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
  stats(): OrchestratorStats {
    return { inflight: this.inflight.size, queues: this.queues.stats() };
  }

  /** Cancels every call waiting or running; each returns `CANCELLED`. */
  cancel(reason = 'cancelled by orchestrator.cancel()'): void {
    const error = new ToolError('CANCELLED', reason);
    for (const state of this.inflight.snapshot()) state.stop(error);
    this.queues.cancelWaiting();
  }

  /**
   * Cancels everything, stops a warmup in progress, closes every provider and middleware (each
   * given `closeTimeoutMs`; one that throws or hangs is reported with a `warning` and does not
   * keep the others open), and removes stored outputs.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel('the orchestrator is closing');
    this.catalog.stopStarts();
    this.timer.clear();
    await closeAll(
      this.catalog.registry.entries,
      this.middleware,
      this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
      (message) => this.events.emit('warning', { message }),
    );
    await this.store?.close();
  }

  /**
   * Runs a call on behalf of a running tool (batch, child sessions): same session, principal and
   * signal; its deadline is its own (tool, provider or global timeout) cut to what the parent has left.
   */
  callFrom(parent: ToolContext, name: string, args: unknown): Promise<ToolResult> {
    return this.call(name, args, {
      principal: parent.principal,
      session: parent.session,
      trace: { ...parent.trace, parentId: parent.callId },
      services: parent.services,
      signal: parent.signal,
      ...(parent.deadline ? { timeoutMs: this.childTimeout(name, parent.deadline) } : {}),
    });
  }

  /** The lesser of a call's own timeout and the time its parent has left (at least 1 ms). */
  private childTimeout(name: string, parentDeadline: number): number {
    const left = Math.max(1, parentDeadline - this.timer.now());
    const route = typeof name === 'string' ? this.catalog.registry.resolve(name) : undefined;
    const own: unknown = route?.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // tool and provider timeouts were checked when listed and registered; this guard is cheap
    return typeof own === 'number' && own > 0 ? Math.min(own, left) : left;
  }

  private compose(): NextMiddleware {
    this.raceDeadline =
      this.options.hooks !== undefined || this.middleware.some((middleware) => middleware.handle);
    return composeMiddleware(this.builtins, this.middleware, this.terminal);
  }

  /**
   * The state of a call in flight: it rides on the context (copied by spread and extendContext);
   * a context a middleware built from scratch is found by its call id.
   */
  private stateOf(ctx: ToolContext): CallState | undefined {
    return (
      (ctx as { [CALL_STATE]?: CallState })[CALL_STATE] ??
      this.inflight.find((state) => state.callId === ctx.callId)
    );
  }

  private registerInternalTools(maxBytes: number): void {
    this.register(
      createInternalProvider({
        namespace: INTERNAL_NAMESPACE,
        store: this.store,
        maxBytes,
        batch: {
          callFrom: (parent, name, args) => this.callFrom(parent, name, args),
          describe: (name) => {
            const route = this.catalog.registry.resolve(name);
            return route ? { name: route.name, readOnly: isReadOnly(route.spec) } : undefined;
          },
          answerOnStop: (ctx, answer) => {
            const state = this.stateOf(ctx);
            if (!state) return NOOP;
            state.answerOnStop = answer;
            return () => {
              if (state.answerOnStop === answer) state.answerOnStop = undefined;
            };
          },
        },
      }),
    );
  }

  private early(
    tool: string,
    callId: string,
    sessionId: string,
    startedAt: number,
    result: ToolResult,
    totalsKey = tool,
  ): ToolResult {
    const meta = earlyMeta(tool, callId, this.timer.now() - startedAt);
    const final = withMeta(result, meta);
    this.finish(final, meta, sessionId, startedAt, totalsKey);
    return final;
  }

  private finish(
    result: ToolResult,
    meta: CallMeta,
    sessionId: string,
    startedAt: number,
    totalsKey = meta.tool,
  ): void {
    recordCall(this.accountingBook, this.events, result, meta, sessionId, startedAt, totalsKey);
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
