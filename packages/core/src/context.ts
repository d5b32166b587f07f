import type { ApprovalChannel } from './approvals.js';
import type { Executor } from './executor.js';
import type { FileSystem } from './filesystem.js';
import type { OpNode } from './op-tree.js';
import type { Principal } from './principal.js';

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
}

/** What a caller supplies; everything has a default. */
export type ToolContextInit = Partial<Omit<ToolContext, 'session' | 'trace'>> & {
  readonly session?: Partial<SessionInfo>;
  readonly trace?: Partial<TraceInfo>;
};

let counter = 0;

/** A process-unique id with a prefix (`call_1a2b3c_7`). Not a secret: do not use as a token. */
export function createId(prefix: string): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}_${counter.toString(36)}`;
}

const NEVER_ABORTED: AbortSignal = new AbortController().signal;
const NOOP = (): void => {};

/**
 * A complete context from a partial one, for direct calls and tests.
 *
 * @example
 * const ctx = createToolContext({ principal: { agentId: 'coder' } });
 */
export function createToolContext(init: ToolContextInit = {}): ToolContext {
  const sessionId = init.session?.id ?? 'default';
  const callId = init.callId ?? createId('call');
  return {
    signal: init.signal ?? NEVER_ABORTED,
    callId,
    principal: init.principal ?? {},
    session: { depth: 0, ...init.session, id: sessionId },
    trace: { originId: init.trace?.originId ?? sessionId, callPath: [], ...init.trace },
    services: init.services ?? {},
    progress: init.progress ?? NOOP,
    ...(init.deadline === undefined ? {} : { deadline: init.deadline }),
    ...(init.op === undefined ? {} : { op: init.op }),
  };
}
