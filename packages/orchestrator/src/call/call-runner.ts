import {
  type CallMeta,
  type Middleware,
  type NextMiddleware,
  type ToolContext,
  type ToolResult,
  type ToolError,
  createId,
  fail,
} from '@toolplane/core';
import { Accounting } from '../observe/accounting.js';
import { type Builtins, createBuiltins } from '../middleware/builtins.js';
import { CALL_STATE } from './call-context.js';
import type { CallState } from './call-state.js';
import { CallsInFlight } from './calls-in-flight.js';
import { callMeta, withMeta } from './call-values.js';
import { INVALID_SESSION_ID } from './check-caller.js';
import { shortName } from './short-name.js';
import { DeadlineTimer } from './deadline-timer.js';
import type { EventHub } from '../observe/events.js';
import { createProviderStep } from './execute-provider.js';
import type { CallOptions, OrchestratorOptions } from '../options.js';
import type { QueueSet } from '../queue/queue-set.js';
import { earlyMeta, recordCall } from '../observe/record-call.js';
import type { ToolRegistry } from '../registry/registry.js';
import { type PipelineChain, pipelineChain } from '../middleware/pipeline-chain.js';
import { pipelineFailure, runPipeline } from '../middleware/run-pipeline.js';
import { DEFAULT_TIMEOUT_MS, type PreparedCall, prepareCall } from './prepare-call.js';
import { SessionTrees } from '../observe/session-trees.js';
import { endToolSpan, startToolSpan } from '../observe/telemetry.js';
import { stopFailure, timeoutError } from './stop-errors.js';
import { thrownMessage } from './thrown.js';

/** How a call's wait for the providers' start went. */
export interface StartWait {
  /** When the call was made (its deadline counts from then). */
  readonly since: number;
  /** What ended the wait early (a cancel, the caller's signal, the timeout), if anything did. */
  readonly stopped?: ToolError;
}

/** What the call runner needs from the orchestrator. */
export interface CallRunnerDeps {
  readonly options: OrchestratorOptions;
  readonly events: EventHub;
  readonly queues: QueueSet;
  /** The registry calls resolve their tool in (the catalog's, made after the runner). */
  readonly registry: () => ToolRegistry;
  /** The app's middleware, as `use()` adds to it (see {@link CallRunner.recompose}). */
  readonly middleware: readonly Middleware[];
}

/**
 * Runs calls: admission, the call's state and id, its deadline, context, events and span, the
 * middleware chain down to the provider, and the accounting of how it ended. Also the calls in
 * flight (to stop one by its id, or all) and the books they write (accounting, operation trees).
 */
export class CallRunner {
  readonly timer: DeadlineTimer;
  readonly builtins: Builtins;
  readonly accounting: Accounting;
  readonly trees = new SessionTrees();
  private readonly deps: CallRunnerDeps;
  /** The calls in flight and those waiting for the providers to start. */
  readonly calls = new CallsInFlight();
  private readonly terminal: NextMiddleware;
  /** The composed middleware chain, and what the app's middleware asks of the runner. */
  private chain: PipelineChain;
  /** Set by the orchestrator's `close()`: calls are refused from then on. */
  closed = false;

  constructor(deps: CallRunnerDeps) {
    const { options } = deps;
    this.deps = deps;
    this.timer = new DeadlineTimer(options.timers);
    this.accounting = new Accounting(options.accountingCapacity);
    const now = (): number => this.timer.now();
    const stateOf = (ctx: ToolContext): CallState | undefined => this.stateOf(ctx);
    this.terminal = createProviderStep({
      stateOf,
      queueFor: (name) => deps.queues.queueFor(name),
      now,
      recheckArgs: () => this.chain.recheckArgs,
      retry: {
        maxAttempts: Math.max(1, options.retry?.maxAttempts ?? 2),
        baseDelayMs: options.retry?.baseDelayMs ?? 200,
        maxDelayMs: options.retry?.maxDelayMs ?? 2_000,
      },
    });
    this.builtins = createBuiltins(options, {
      stateOf,
      now,
      warn: (tool, message) => deps.events.emit('warning', { tool, message }),
    });
    this.chain = this.compose();
  }

  /** Rebuilds the middleware chain (after `use()` added one). */
  recompose(): void {
    this.chain = this.compose();
  }

  /**
   * Runs one call once `ready` (the providers' start) settles. A cancel, the caller's signal or
   * the call's timeout meanwhile ends it at once (`CANCELLED`, `TIMEOUT`) without running it; the
   * time it waited counts against its timeout.
   */
  async runAfter(
    ready: Promise<unknown>,
    name: string,
    args: unknown,
    options: CallOptions,
  ): Promise<ToolResult> {
    const since = this.timer.now();
    const stopped = await this.calls.waitToStart(ready, options, {
      tool: typeof name === 'string' ? shortName(name) : `(${typeof name})`,
      timeoutMs: this.waitLimit(name, options),
      timer: this.timer,
    });
    return this.run(name, args, options, { since, ...(stopped ? { stopped } : {}) });
  }

  /**
   * Runs one call through the pipeline (the catalog is ready). Never rejects but for a bug. A
   * call that waited for the providers' start (`waited`) has its deadline from when it was made;
   * one stopped while it waited is put in flight already stopped: it is recorded like any call
   * and ends with that error, running nothing.
   */
  async run(name: string, args: unknown, options: CallOptions, waited?: StartWait): Promise<ToolResult> {
    const startedAt = waited?.since ?? this.timer.now();
    const stopped = waited?.stopped;
    let prepared: PreparedCall;
    try {
      const { deps } = this;
      const ready = prepareCall(
        {
          options: deps.options,
          events: deps.events,
          registry: deps.registry(),
          calls: this.calls,
          closed: this.closed,
        },
        name,
        args,
        options,
        startedAt,
      );
      if ('refusal' in ready) {
        const { tool, callId, sessionId, refusal, totalsKey } = ready;
        // stopped before its provider had listed its tools: the name may not resolve yet
        const ended =
          stopped && !refusal.ok && refusal.error.code === 'TOOL_NOT_FOUND' ? stopFailure(stopped) : refusal;
        return this.early(tool, callId, sessionId, startedAt, ended, totalsKey);
      }
      prepared = ready;
      if (stopped) prepared.state.stop(stopped);
      else if (waited && prepared.deadline <= this.timer.now()) {
        // the start took the whole of this tool's own timeout (known only once it was listed)
        prepared.state.stop(timeoutError(prepared.admitted.route.name, prepared.admitted.timeoutMs));
      }
    } catch (error) {
      // a getter or a Proxy in the options threw; nothing was started or held
      const tool = typeof name === 'string' ? shortName(name) : `(${typeof name})`;
      const refusal = fail(
        'CONFIG_INVALID',
        `reading the options of a call to ${tool} threw: ${thrownMessage(error)}; pass a plain object { session?, principal?, timeoutMs?, signal?, ... }`,
      );
      return this.early(tool, createId('call'), INVALID_SESSION_ID, startedAt, refusal);
    }
    return this.execute(prepared, startedAt);
  }

  /** Runs a prepared call: in flight, its events, span and deadline, the pipeline, its books. */
  private async execute(prepared: PreparedCall, startedAt: number): Promise<ToolResult> {
    const { deps } = this;
    const { admitted, state, ctx, sessionId, chosenId, deadline, caller } = prepared;
    const { route, args: parsedArgs, bytesIn, timeoutMs } = admitted;
    const callId = state.callId;
    this.calls.add(state, chosenId);
    const op =
      deps.options.operationTree === false
        ? undefined
        : this.trees.begin(sessionId, callId, route.name, startedAt);
    state.opRecord = op;
    const events = deps.events;
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
    const unfollow = caller ? state.followCaller(caller) : undefined;
    const deadlineEntry = this.timer.add(deadline, () => state.stop(timeoutError(route.name, timeoutMs)));
    let result: ToolResult;
    try {
      result = await runPipeline(this.chain.dispatch, this.chain.raceDeadline, state, {
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
    this.calls.delete(state, chosenId);
    const endedAt = this.timer.now();
    const meta = callMeta(callId, route, state, endedAt - startedAt, bytesIn, result);
    const final: ToolResult = withMeta(result, meta);
    state.outcome = final;
    state.refund();
    op?.end(result, endedAt);
    endToolSpan(span, result, state.cached);
    this.finish(final, meta, sessionId, startedAt);
    return final;
  }

  /**
   * The state of a call in flight: it rides on the context (copied by spread and extendContext);
   * a context a middleware built from scratch is found by its call id.
   */
  stateOf(ctx: ToolContext): CallState | undefined {
    return (ctx as { [CALL_STATE]?: CallState })[CALL_STATE] ?? this.calls.find(ctx.callId);
  }

  /**
   * How long a call may wait for the providers' start: its own timeout, else its tool's (when the
   * name resolves already), else the global one. Options that cannot be read are refused later.
   */
  private waitLimit(name: unknown, options: CallOptions): number {
    let given: unknown;
    try {
      given = typeof options === 'object' && options !== null ? options.timeoutMs : undefined;
    } catch {
      given = undefined;
    }
    if (typeof given === 'number' && given > 0) return given;
    const route = typeof name === 'string' ? this.deps.registry().resolve(name) : undefined;
    return route?.timeoutMs ?? this.deps.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The lesser of a call's own timeout and the time its parent has left (at least 1 ms). */
  childTimeout(name: string, parentDeadline: number): number {
    const left = Math.max(1, parentDeadline - this.timer.now());
    const route = typeof name === 'string' ? this.deps.registry().resolve(name) : undefined;
    const own: unknown = route?.timeoutMs ?? this.deps.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // tool and provider timeouts were checked when listed and registered; this guard is cheap
    return typeof own === 'number' && own > 0 ? Math.min(own, left) : left;
  }

  private compose(): PipelineChain {
    return pipelineChain({
      builtins: this.builtins.middleware,
      hooks: this.builtins.hooks,
      middleware: this.deps.middleware,
      terminal: this.terminal,
      validation: this.deps.options.validation !== false,
      stateOf: (ctx) => this.stateOf(ctx),
    });
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
    recordCall(this.accounting, this.deps.events, result, meta, sessionId, startedAt, totalsKey);
  }
}
