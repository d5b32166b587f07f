import { type ToolContext, ToolError, createOpNode } from '@toolplane/core';
import type { AgentInbox, AgentStep, AgentStepEvent } from '../runner/runner-types.js';
import type { RunAgentOptions } from './options.js';
import { type AnnounceOptions, AnnounceQueue } from './announce-queue.js';
import { type RunRecord, isActive } from './records.js';
import { type SubagentUsage, addInto, emptyUsage } from './usage.js';

/** Aborts a run that is still going; false when it had ended or was already stopping. */
export function abortRun(record: RunRecord, reason: ToolError): boolean {
  if (!isActive(record) || record.controller.signal.aborted) return false;
  record.controller.abort(reason);
  return true;
}

/** Hands a step to the run's listener and every ancestor's, then to the global one. */
export function emitStep(record: RunRecord, event: AgentStepEvent, global?: (step: AgentStep) => void): void {
  const step: AgentStep = { ...event, runId: record.id, agent: record.agent, depth: record.depth };
  for (let up: RunRecord | undefined = record; up; up = up.parent) {
    try {
      up.onStep?.(step);
    } catch {
      // a listener's bug must not break a run
    }
  }
  try {
    global?.(step);
  } catch {
    // as above
  }
}

/**
 * Books usage on a run and every ancestor's totals; a subagent whose totals pass its token
 * budget is aborted with `BUDGET_EXCEEDED`.
 */
export function addRunUsage(
  record: RunRecord,
  delta: Partial<SubagentUsage>,
  budgetOf: (record: RunRecord) => number,
): void {
  addInto(record.own, delta);
  for (let up: RunRecord | undefined = record; up; up = up.parent) {
    addInto(up.totals, delta);
    if (up.kind !== 'child' || !delta.totalTokens) continue;
    const budget = budgetOf(up);
    if (up.totals.totalTokens <= budget) continue;
    abortRun(
      up,
      new ToolError(
        'BUDGET_EXCEEDED',
        `agent "${up.agent}" (${up.id}) used ${up.totals.totalTokens} tokens, over its budget of ${budget} (maxTokensPerChild)`,
        {
          details: { limit: 'maxTokensPerChild', value: budget },
        },
      ),
    );
  }
}

/** The inbox of a run: its background children's announcements. */
export function inboxFor(
  record: RunRecord,
  announce: AnnounceOptions | undefined,
  now: () => number,
): AgentInbox {
  const queue = (): AnnounceQueue => {
    record.queue ??= new AnnounceQueue(announce, now);
    return record.queue;
  };
  return {
    pending: () => {
      let count = record.queue?.buffered ?? 0;
      for (const child of record.children) if (child.background && !child.silent && isActive(child)) count++;
      return count;
    },
    take: () => record.queue?.take() ?? [],
    next: (signal) => queue().next(signal),
  };
}

/** An app's own session that spawns: a root the manager tracks until `endSession()`. */
export function appRecord(ctx: ToolContext, knownAgent: (name: string) => boolean, now: number): RunRecord {
  const agentId = ctx.principal.agentId;
  return {
    id: ctx.session.id,
    sessionId: ctx.session.id,
    agent: agentId ?? 'app',
    task: '',
    kind: 'root',
    background: false,
    depth: ctx.session.depth,
    lineage: agentId && knownAgent(agentId) ? [agentId] : [],
    state: 'running',
    archived: false,
    createdAt: now,
    iterations: 0,
    own: emptyUsage(),
    totals: emptyUsage(),
    controller: new AbortController(),
    children: new Set(),
    node: createOpNode('session', ctx.session.id, ctx.session.id, now),
    session: ctx.session,
    principal: ctx.principal,
    services: ctx.services,
    trace: ctx.trace,
    silent: true,
  };
}

/** The record of a root run (`runAgent`). */
export function rootRecord(
  options: RunAgentOptions,
  at: {
    readonly sessionId: string;
    readonly name: string;
    readonly lineage: readonly string[];
    readonly now: number;
  },
): RunRecord {
  const { sessionId, name, now } = at;
  const services = options.services;
  return {
    id: sessionId,
    sessionId,
    agent: name,
    task: options.task,
    kind: 'root',
    background: false,
    depth: 0,
    lineage: at.lineage,
    state: 'spawning',
    archived: false,
    createdAt: now,
    iterations: 0,
    own: emptyUsage(),
    totals: emptyUsage(),
    controller: new AbortController(),
    children: new Set(),
    node: createOpNode('session', name, sessionId, now),
    session: { id: sessionId, depth: 0, ...(options.mode ? { mode: options.mode } : {}) },
    principal: options.principal ?? {},
    services: services ?? {},
    trace: { originId: sessionId, callPath: [] },
    ...(services?.approvals ? { rootApprovals: services.approvals } : {}),
    silent: true,
    ...(options.onStep ? { onStep: options.onStep } : {}),
  };
}
