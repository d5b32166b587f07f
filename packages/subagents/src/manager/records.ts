import type {
  ApprovalChannel,
  OpNode,
  Principal,
  SessionInfo,
  ToolContext,
  ToolFailureInfo,
  ToolServices,
  TraceInfo,
} from '@toolplane/core';
import type { AgentStep, FinalReport } from '../runner/runner-types.js';
import type { AnnounceQueue } from './announce-queue.js';
import type { SubagentUsage } from './usage.js';

/** Where a subagent is in its life (design document 002). */
export type SubagentState = 'spawning' | 'running' | 'completed' | 'failed' | 'cancelled';

/** How a run ended. */
export interface RunOutcome {
  readonly id: string;
  readonly agent: string;
  readonly status: 'completed' | 'failed' | 'cancelled';
  readonly report?: FinalReport;
  readonly error?: ToolFailureInfo;
  readonly iterations: number;
  /** The run's own usage plus its descendants'. */
  readonly usage: SubagentUsage;
  /** The run's operation tree: its tool calls, with its children's trees under the calls that ran them. */
  readonly tree: OpNode;
  /** Set when the run ended by handing the task on (`router__handoff-to`); the outcome is the destination's. */
  readonly handedOffFrom?: readonly string[];
}

/** What `list` shows of one subagent. */
export interface SubagentInfo {
  readonly id: string;
  readonly agent: string;
  readonly label?: string;
  readonly task: string;
  readonly state: SubagentState;
  readonly archived: boolean;
  readonly depth: number;
  readonly parentSessionId: string;
  readonly background: boolean;
  readonly createdAt: number;
  readonly endedAt?: number;
  readonly iterations: number;
  readonly usage: SubagentUsage;
  readonly steeredFrom?: string;
  readonly error?: ToolFailureInfo;
}

/** One run the manager knows: a subagent, or a root run (`runAgent`) or an app session that spawned. */
export interface RunRecord {
  readonly id: string;
  /** The session its own tool calls run in (a subagent's id; a root's session id). */
  readonly sessionId: string;
  agent: string;
  task: string;
  readonly label?: string;
  readonly kind: 'child' | 'root';
  readonly background: boolean;
  readonly depth: number;
  readonly parent?: RunRecord;
  /** Agent names from the root to this run, its own included. */
  readonly lineage: readonly string[];
  state: SubagentState;
  archived: boolean;
  readonly createdAt: number;
  endedAt?: number;
  iterations: number;
  readonly own: SubagentUsage;
  readonly totals: SubagentUsage;
  report?: FinalReport;
  error?: ToolFailureInfo;
  readonly controller: AbortController;
  readonly children: Set<RunRecord>;
  lastChild?: RunRecord;
  readonly node: OpNode;
  readonly session: SessionInfo;
  readonly principal: Principal;
  readonly services: ToolServices;
  readonly trace: TraceInfo;
  /** The approval channel at the top of the tree (children ask there, naming themselves). */
  readonly rootApprovals?: ApprovalChannel;
  /** Tool names this run may call; undefined until computed. */
  allowed?: ReadonlySet<string>;
  queue?: AnnounceQueue;
  done?: Promise<RunOutcome>;
  steeredFrom?: string;
  /** No announcement when it ends (cancelled by steer). */
  silent: boolean;
  readonly onStep?: (step: AgentStep) => void;
  /** The call that spawned a sync child, whose cancel cancels it. */
  readonly caller?: ToolContext;
}

/** The public view of a record. */
export function toInfo(record: RunRecord): SubagentInfo {
  return {
    id: record.id,
    agent: record.agent,
    ...(record.label ? { label: record.label } : {}),
    task: record.task,
    state: record.state,
    archived: record.archived,
    depth: record.depth,
    parentSessionId: record.parent?.sessionId ?? '',
    background: record.background,
    createdAt: record.createdAt,
    ...(record.endedAt === undefined ? {} : { endedAt: record.endedAt }),
    iterations: record.iterations,
    usage: { ...record.totals },
    ...(record.steeredFrom ? { steeredFrom: record.steeredFrom } : {}),
    ...(record.error ? { error: record.error } : {}),
  };
}

/** True while a run has not ended. */
export function isActive(record: RunRecord): boolean {
  return record.state === 'spawning' || record.state === 'running';
}

/** A spawned subagent, as `spawn` and `steer` answer it. */
export interface SubagentHandle {
  readonly id: string;
  readonly agent: string;
  /** Settles when the run ends (never rejects). */
  readonly done: Promise<RunOutcome>;
  /** Its state now. */
  info(): SubagentInfo;
}

/** The handle of a record. */
export function handleOf(record: RunRecord): SubagentHandle {
  return {
    id: record.id,
    agent: record.agent,
    done: record.done as Promise<RunOutcome>,
    info: () => toInfo(record),
  };
}
