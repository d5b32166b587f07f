import {
  type Middleware,
  type OpNode,
  type RegisteredTool,
  type ToolContext,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  type ToolView,
  ToolError,
  isReadOnly,
} from '@toolplane/core';
import type { AccountingRecord, ToolTotals } from './observe/accounting.js';
import { CallRunner } from './call/call-runner.js';
import { cancelAllError, cancelCallError, checkCancelId } from './call/cancel-call.js';
import { NOOP } from './call/noop.js';
import { checkMiddleware, checkOrchestratorOptions } from './check-options.js';
import { closeAll } from './registry/close-within.js';
import { type OrchestratorEventName, type OrchestratorEvents, EventHub } from './observe/events.js';
import { createInternalProvider } from './internal/internal-provider.js';
import type { CallOptions, OrchestratorOptions } from './options.js';
import type { OrchestratorStats } from './queue/queue.js';
import { QueueSet } from './queue/queue-set.js';
import type { ProviderOptions } from './registry/registry.js';
import { type ProviderState, combinedInstructions, providerStates } from './registry/registry-views.js';
import { ToolCatalog } from './registry/tool-catalog.js';
import { tellToolsChanged } from './registry/tools-changed.js';
import type { WarmupReport } from './registry/warmup.js';

const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;
const INTERNAL_NAMESPACE = 'toolplane';

/**
 * The registry and call pipeline. Create one with {@link createOrchestrator}.
 */
export class ToolsOrchestrator {
  private readonly options: OrchestratorOptions;
  private readonly events = new EventHub();
  private readonly queues: QueueSet;
  private readonly middleware: Middleware[] = [];
  private readonly runner: CallRunner;
  private readonly catalog: ToolCatalog;
  private closed = false;
  /** The running or finished `close()`: a second call waits for the same one. */
  private closing: Promise<void> | undefined;

  constructor(options: OrchestratorOptions = {}) {
    checkOrchestratorOptions(options);
    this.options = options;
    this.queues = new QueueSet(options);
    this.runner = new CallRunner({
      options,
      events: this.events,
      queues: this.queues,
      registry: () => this.catalog.registry,
      middleware: this.middleware,
    });
    this.catalog = new ToolCatalog({
      options,
      events: this.events,
      builtins: this.runner.builtins.middleware,
      middleware: this.middleware,
      closed: () => this.closed,
    });
    if (options.internalTools !== false) this.registerInternalTools(this.runner.builtins.maxBytes);
  }

  /** Adds a provider; it starts on the next `warmup()` (or the first call). */
  register(provider: ToolProvider, options: ProviderOptions = {}): this {
    this.catalog.register(provider, options);
    return this;
  }

  /** Adds middleware to its phase (after the built-ins and earlier middleware of that phase). */
  use(middleware: Middleware): this {
    checkMiddleware(middleware);
    // close() has closed the middleware it had: one added now would never be closed
    if (this.closed)
      throw new ToolError(
        'PROVIDER_UNAVAILABLE',
        'use() after close(): the orchestrator is closed; create a new one',
      );
    this.middleware.push(middleware);
    this.runner.recompose();
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
    return combinedInstructions(this.catalog.registry, (provider, message) =>
      this.events.emit('warning', { provider, message }),
    );
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
  call(name: string, args: unknown, options: CallOptions = {}): Promise<ToolResult> {
    const ready = this.catalog.whenReady();
    if (ready) return this.runner.runAfter(ready, name, args, options);
    return this.runner.run(name, args, options);
  }

  /** The operation tree of a session. */
  operationTree(sessionId = 'default'): OpNode | undefined {
    return this.runner.trees.get(sessionId);
  }

  /** Forgets a session's tree and context budget. */
  endSession(sessionId: string): void {
    this.runner.trees.end(sessionId);
    this.runner.builtins.budget?.reset(sessionId);
  }

  /** Per-call records and per-tool totals. */
  accounting(): { records: AccountingRecord[]; totals: Record<string, ToolTotals> } {
    return {
      records: this.runner.accounting.records(),
      totals: Object.fromEntries(this.runner.accounting.totals),
    };
  }

  /** Tokens of output a session has received (with a context budget). */
  budgetUsed(sessionId: string): number | undefined {
    return this.runner.builtins.budget?.used(sessionId);
  }

  /** Drops every cached response. */
  clearCache(): void {
    this.runner.builtins.cache?.clear();
  }

  /** Calls in flight and waiting per queue. */
  stats(): OrchestratorStats {
    return { inflight: this.runner.calls.size, queues: this.queues.stats() };
  }

  /**
   * With no arguments: cancels every call, as {@link cancelAll}. With a call id: cancels that one
   * call (a user's "stop that call", an MCP `notifications/cancelled`), whether it runs, waits in
   * a queue, waits in middleware (an approval) or waits for its provider to start. It ends
   * `CANCELLED` with the reason in its message (cut at 1000 characters), recorded once like any
   * call; calls it made with its `ctx.signal` (a `batch`'s calls, nested calls) end `CANCELLED`
   * too. Answers `true` when a call had that id and was not already stopping; `false` for an id
   * no call in flight has (unknown, finished, already cancelled or timed out) and for a call whose
   * answer is already on its way back (it keeps that answer). Throws
   * `INVALID_ARGUMENTS` for an id or reason that is not a string.
   *
   * @example
   * orchestrator.on('tool_started', (e) => running.set(e.callId, e.tool));
   * orchestrator.cancel(callId, 'the user pressed stop'); // true while that call is in flight
   */
  cancel(): void;
  cancel(callId: string, reason?: string): boolean;
  cancel(...args: unknown[]): boolean | undefined {
    if (args.length === 0) {
      this.cancelAll();
      return undefined;
    }
    const [callId, reason] = args;
    checkCancelId(callId);
    return this.runner.calls.stop(callId, cancelCallError(reason));
  }

  /** Cancels every call waiting or running; each returns `CANCELLED` with `reason` as its message. */
  cancelAll(reason?: string): void {
    this.runner.calls.stopAll(cancelAllError(reason));
    this.queues.cancelWaiting();
  }

  /**
   * Cancels everything, stops a warmup in progress, closes every provider and middleware (each
   * given `closeTimeoutMs`; one that throws or hangs is reported with a `warning` and does not
   * keep the others open), and removes stored outputs. A second call resolves with the first.
   */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    this.closed = true;
    this.runner.closed = true;
    // forced: deadlines stop firing below, so a call still in a middleware must end now
    this.runner.calls.stopAll(cancelAllError('the orchestrator is closing'), true);
    this.queues.cancelWaiting();
    this.catalog.stopStarts();
    this.runner.timer.clear();
    await closeAll(
      this.catalog.registry.entries,
      this.middleware,
      this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
      (message) => this.events.emit('warning', { message }),
    );
    await this.runner.builtins.store?.close();
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
      ...(parent.deadline ? { timeoutMs: this.runner.childTimeout(name, parent.deadline) } : {}),
    });
  }

  private registerInternalTools(maxBytes: number): void {
    this.register(
      createInternalProvider({
        namespace: INTERNAL_NAMESPACE,
        store: this.runner.builtins.store,
        maxBytes,
        batch: {
          callFrom: (parent, name, args) => this.callFrom(parent, name, args),
          describe: (name) => {
            const route = this.catalog.registry.resolve(name);
            return route ? { name: route.name, readOnly: isReadOnly(route.spec) } : undefined;
          },
          answerOnStop: (ctx, answer) => {
            const state = this.runner.stateOf(ctx);
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
