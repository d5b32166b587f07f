import type { ApprovalChannel } from './approvals.js';
import type { Executor } from './executor.js';
import type { FileSystem } from './filesystem.js';
import type { OpNode } from './op-tree.js';
import type { Principal } from './principal.js';

const NOOP = (): void => {};
/** The listeners `onAbort` keeps per signal (one real listener on each signal). */
const FOLLOWERS = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

/** How much a session lets tools do without asking (see `@toolplane/policy`). */
export type PermissionMode = 'default' | 'accept-edits' | 'plan' | 'bypass';

/** The session a call belongs to. Child agents run in sessions of depth + 1. */
export interface SessionInfo {
  readonly id: string;
  readonly depth: number;
  readonly parentId?: string;
  readonly mode?: PermissionMode;
}

/** Trace identity of a call, propagated into child sessions. */
export interface TraceInfo {
  /** The id of the top-level run this call descends from. */
  readonly originId: string;
  readonly parentId?: string;
  /** Public tool names from the root to this call. */
  readonly callPath: readonly string[];
  /** W3C traceparent, when the caller has one. */
  readonly traceparent?: string;
}

/** A progress report from a running tool. */
export interface ProgressUpdate {
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
}

/**
 * Services injected into tools so tools stay stateless and safe to share between sessions.
 * Apps add their own under other keys.
 */
export interface ToolServices {
  readonly executor?: Executor;
  readonly fs?: FileSystem;
  readonly approvals?: ApprovalChannel;
  readonly [name: string]: unknown;
}

/** Lets a tool that runs a child session attach the child's tree under the current call. */
export interface OpHandle {
  readonly node: OpNode;
  attach(child: OpNode): void;
}

/** Everything a tool may know about the call it is running. */
export interface ToolContext {
  /** Aborts on caller cancellation and on timeout; pass it to every I/O. */
  readonly signal: AbortSignal;
  readonly callId: string;
  readonly principal: Principal;
  readonly session: SessionInfo;
  readonly trace: TraceInfo;
  /** Absolute deadline (epoch ms) when the call has a timeout. */
  readonly deadline?: number;
  readonly services: ToolServices;
  readonly op?: OpHandle;
  progress(update: ProgressUpdate): void;
  /**
   * Runs `listener` once when the call is cancelled or times out (at once when it already was);
   * returns a function that removes it. Optional: the orchestrator provides it because it costs
   * no `AbortSignal` (creating one and listening on it costs several microseconds in Node 20).
   * Call it through {@link onAbort}, which falls back to `signal` when a context lacks it.
   */
  onAbort?(listener: (reason: unknown) => void): () => void;
}

/** What a cancellable operation needs to know about its caller's cancellation. */
export type AbortSource = Pick<ToolContext, 'signal' | 'onAbort'>;

/**
 * Runs `listener` once when `source` is aborted (at once when it already is); returns a function
 * that removes it. Uses the context's own `onAbort` when it has one (no `AbortSignal` is
 * created), and `signal` otherwise.
 *
 * @example
 * const stop = onAbort(ctx, (reason) => child.kill());
 * try { return await work(); } finally { stop(); }
 */
export function onAbort(source: AbortSource, listener: (reason: unknown) => void): () => void {
  if (source.onAbort) return source.onAbort(listener);
  const signal = source.signal;
  if (signal.aborted) {
    listener(signal.reason);
    return NOOP;
  }
  // Many calls often share one caller signal: they share one listener on it, so the signal never
  // collects a listener per call (nor makes Node warn about a leak).
  let listeners = FOLLOWERS.get(signal);
  if (!listeners) {
    const created = new Set<(reason: unknown) => void>();
    listeners = created;
    FOLLOWERS.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        FOLLOWERS.delete(signal);
        const reason = signal.reason;
        for (const each of [...created]) {
          try {
            each(reason);
          } catch (error) {
            // as from an abort listener: reported, and the others still run
            queueMicrotask(() => {
              throw error;
            });
          }
        }
        created.clear();
      },
      { once: true },
    );
  }
  const registered = listeners;
  registered.add(listener);
  return () => {
    registered.delete(listener);
  };
}

/** What a caller supplies; everything has a default. */
export type ToolContextInit = Partial<Omit<ToolContext, 'session' | 'trace'>> & {
  readonly session?: Partial<SessionInfo>;
  readonly trace?: Partial<TraceInfo>;
};

let counter = 0;
// one random base per process keeps ids unique across processes; the counter keeps them cheap
const ID_BASE = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
let lastPrefix = '';
let lastBase = '';

/** A unique id with a prefix (`call_lx2k9a4f1q_7`). Not a secret: do not use as a token. */
export function createId(prefix: string): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  // one concatenation per id: the prefix and base are joined once per prefix in a row, and
  // the counter is decimal (Number#toString(36) costs more than the cached decimal conversion)
  if (prefix !== lastPrefix) {
    lastPrefix = prefix;
    lastBase = `${prefix}_${ID_BASE}_`;
  }
  return lastBase + counter;
}

/**
 * A copy of a context with some fields replaced, for middleware (for example to wrap
 * `progress`). Use it instead of object spread: a context's `signal` may be a lazy accessor
 * that a spread would not carry over.
 *
 * @example
 * const ctx = extendContext(call.ctx, { progress: (update) => call.ctx.progress(scrub(update)) });
 */
export function extendContext(ctx: ToolContext, overrides: Partial<ToolContext>): ToolContext {
  // a new signal: the old context's onAbort would follow the old one. A spread copies only own
  // properties, so `signal` and `op` (accessors on a call context's prototype) are named.
  if (overrides.signal !== undefined) {
    const op = ctx.op;
    return {
      ...ctx,
      signal: ctx.signal,
      onAbort: undefined,
      ...(op === undefined ? {} : { op }),
      ...overrides,
    };
  }
  const copy = Object.create(Object.getPrototypeOf(ctx) as object) as ToolContext;
  return Object.assign(copy, ctx, overrides);
}

/**
 * A complete context from a partial one, for direct calls and tests.
 *
 * @example
 * const ctx = createToolContext({ principal: { agentId: 'coder' } });
 */
export function createToolContext(init: ToolContextInit = {}): ToolContext {
  const sessionId = init.session?.id ?? 'default';
  const callId = init.callId ?? createId('call');
  const given = init.signal;
  let made: AbortSignal | undefined;
  return {
    // without a signal, each context gets its own, made when first read: one signal shared by
    // every such context collected the listeners tools leave on it (a `once` listener that
    // kills a child) for good, 10,000 calls made 10,000 of them and a MaxListenersExceededWarning
    get signal(): AbortSignal {
      if (given) return given;
      made ??= new AbortController().signal;
      return made;
    },
    callId,
    principal: init.principal ?? {},
    session: { depth: 0, ...init.session, id: sessionId },
    trace: { originId: init.trace?.originId ?? sessionId, callPath: [], ...init.trace },
    services: init.services ?? {},
    progress: init.progress ?? NOOP,
    ...(init.deadline === undefined ? {} : { deadline: init.deadline }),
    ...(init.op === undefined ? {} : { op: init.op }),
    ...(init.onAbort === undefined ? {} : { onAbort: init.onAbort }),
  };
}
