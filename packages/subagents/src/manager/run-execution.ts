import {
  type OpNode,
  ToolError,
  type ToolFailureInfo,
  type ToolResult,
  type ToolSpec,
  fail,
  onAbort,
} from '@toolplane/core';
import type { ToolsOrchestrator } from '@toolplane/orchestrator';
import type { AgentDefinition } from '../definitions/definition.js';
import type { AgentRegistry } from '../definitions/registry.js';
import type { AgentInbox, AgentRunRequest, AgentRunner, AgentStepEvent } from '../runner/runner-types.js';
import { AnnounceQueue } from './announce-queue.js';
import type { ChildToolPolicies } from './child-tools.js';
import type { SubagentLimits } from './limits.js';
import type { SubagentManagerOptions } from './options.js';
import { type RunOutcome, type RunRecord, isActive } from './records.js';
import { raceAbort, settleWithin } from './settle.js';
import { type SubagentUsage, tokenDelta } from './usage.js';

/** What running a record needs from its manager. */
export interface RunHost {
  readonly orchestrator: ToolsOrchestrator;
  readonly runner: AgentRunner;
  readonly agents: AgentRegistry;
  readonly limits: SubagentLimits;
  readonly policies: ChildToolPolicies;
  readonly options: SubagentManagerOptions;
  now(): number;
  abort(record: RunRecord, reason: ToolError): boolean;
  emit(record: RunRecord, event: AgentStepEvent): void;
  addUsage(record: RunRecord, delta: Partial<SubagentUsage>): void;
  inboxOf(record: RunRecord): AgentInbox;
  /** A subagent stopped running (it no longer counts against maxConcurrent). */
  ended(record: RunRecord): void;
  /** A root run ended: the manager drops it from its maps. */
  forget(record: RunRecord): void;
}

const NOOP = (): void => {};

function toolsFor(host: RunHost, record: RunRecord, definition: AgentDefinition): ToolSpec[] {
  const view = { principal: record.principal, session: record.session };
  let candidates = host.orchestrator.listRegistered(view);
  if (record.parent) {
    const parentView = { principal: record.parent.principal, session: record.parent.session };
    const parentNames = new Set(host.orchestrator.listRegistered(parentView).map((tool) => tool.name));
    candidates = candidates.filter((tool) => parentNames.has(tool.name));
  }
  const visible = host.policies.filter(candidates, view, definition.tools);
  record.allowed = new Set(visible.map((tool) => tool.name));
  return visible.map((tool) => tool.spec);
}

function callTool(
  host: RunHost,
  record: RunRecord,
  name: string,
  args: unknown,
  rootServices: boolean,
): Promise<ToolResult> {
  if (!record.allowed?.has(name)) {
    return Promise.resolve(
      fail('TOOL_NOT_FOUND', `"${name.slice(0, 100)}" is not one of agent "${record.agent}"'s tools`),
    );
  }
  return host.orchestrator
    .call(name, args, {
      session: record.session,
      principal: record.principal,
      trace: record.trace,
      signal: record.controller.signal,
      ...(record.kind === 'child' || rootServices ? { services: record.services } : {}),
    })
    .then((result) => {
      host.addUsage(record, {
        toolCalls: 1,
        toolErrors: result.ok ? 0 : 1,
        toolLatencyMs: result.meta?.latencyMs ?? 0,
      });
      return result;
    });
}

function runRequest(
  host: RunHost,
  record: RunRecord,
  definition: AgentDefinition,
  maxIterations: number,
  rootServices: boolean,
): AgentRunRequest {
  const destinations = (definition.router?.destinations ?? [])
    .map((name) => host.agents.get(name))
    .filter((each): each is AgentDefinition => each !== undefined)
    .map((each) => ({ name: each.name, description: each.description }));
  return {
    runId: record.id,
    agent: definition.name,
    depth: record.depth,
    systemPrompt: definition.systemPrompt,
    task: record.task,
    ...(definition.model ? { model: definition.model } : {}),
    tools: toolsFor(host, record, definition),
    maxIterations,
    signal: record.controller.signal,
    report: {
      format: definition.output?.format ?? 'text',
      ...(definition.output?.schema ? { schema: definition.output.schema } : {}),
    },
    ...(destinations.length > 0 ? { handoff: { destinations } } : {}),
    callTool: (name, args) => callTool(host, record, name, args, rootServices),
    inbox: host.inboxOf(record),
    onStep: (event) => {
      if (event.type === 'model-requested') record.iterations++;
      if (event.type === 'message-received') host.addUsage(record, { modelTurns: 1 });
      host.emit(record, event);
    },
    onUsage: (usage) => host.addUsage(record, tokenDelta(usage)),
  };
}

/** Runs one record to its end (handoffs included) and finishes it. */
export async function executeRun(
  host: RunHost,
  record: RunRecord,
  first: AgentDefinition,
  root: { maxIterations?: number | undefined; rootServices: boolean } = { rootServices: false },
): Promise<RunOutcome> {
  await Promise.resolve(); // the spawn returns its record before the run starts
  const grace = host.options.cancelGraceMs ?? 5_000;
  const wallMs = Math.min(
    host.limits.maxWallTimeMs,
    first.budgets?.maxWallTimeMs ?? Number.POSITIVE_INFINITY,
  );
  const wall =
    record.kind === 'child'
      ? setTimeout(
          () =>
            host.abort(
              record,
              new ToolError(
                'BUDGET_EXCEEDED',
                `agent "${record.agent}" (${record.id}) ran past its ${wallMs} ms wall-time budget (maxWallTimeMs)`,
                {
                  details: { limit: 'maxWallTimeMs', value: wallMs },
                },
              ),
            ),
          wallMs,
        )
      : undefined;
  const stopCaller = record.caller
    ? onAbort(record.caller, () =>
        host.abort(record, new ToolError('CANCELLED', 'the call that ran this subagent was cancelled')),
      )
    : NOOP;
  const handedOffFrom: string[] = [];
  let definition = first;
  let failure: ToolFailureInfo | undefined;
  try {
    record.state = 'running';
    // providers registered since the last warmup (and a first run) must be listed before the tools are
    await host.orchestrator.warmup({ signal: record.controller.signal });
    for (;;) {
      const cap =
        record.kind === 'root'
          ? (root.maxIterations ?? host.limits.maxIterations)
          : host.limits.maxIterations;
      const maxIterations = Math.min(cap, definition.budgets?.maxIterations ?? Number.POSITIVE_INFINITY);
      const runner = definition.runner ?? host.runner;
      const result = await raceAbort(
        runner.run(runRequest(host, record, definition, maxIterations, root.rootServices)),
        record.controller.signal,
        grace,
      );
      if (!result.handoff) {
        record.report = result.report;
        break;
      }
      handedOffFrom.push(definition.name);
      const next = host.agents.get(result.handoff.agent);
      if (
        !next ||
        handedOffFrom.length > (host.options.maxHandoffs ?? 3) ||
        handedOffFrom.includes(next.name) ||
        record.lineage.slice(0, -1).includes(next.name)
      ) {
        throw new ToolError(
          'DENIED',
          `agent "${definition.name}" handed off to "${result.handoff.agent}", which is unknown, an ancestor, already in this chain (${handedOffFrom.join(' > ')}) or past maxHandoffs`,
        );
      }
      definition = next;
      record.agent = next.name;
      record.task = result.handoff.message
        ? `${record.task}\n\nNote from ${handedOffFrom.at(-1)}: ${result.handoff.message}`
        : record.task;
    }
  } catch (error) {
    const reason = record.controller.signal.aborted ? (record.controller.signal.reason as unknown) : error;
    const chosen = ToolError.isInstance(reason)
      ? reason
      : ToolError.isInstance(error)
        ? error
        : new ToolError('EXECUTION_FAILED', String(error));
    failure = {
      code: chosen.code,
      message: chosen.message,
      retryable: chosen.retryable,
      ...(chosen.details ? { details: chosen.details } : {}),
    };
  } finally {
    if (wall) clearTimeout(wall);
    stopCaller();
  }
  return finish(host, record, failure, handedOffFrom);
}

async function finish(
  host: RunHost,
  record: RunRecord,
  failure: ToolFailureInfo | undefined,
  handedOffFrom: readonly string[],
): Promise<RunOutcome> {
  const grace = host.options.cancelGraceMs ?? 5_000;
  record.state = failure ? (failure.code === 'CANCELLED' ? 'cancelled' : 'failed') : 'completed';
  if (failure) record.error = failure;
  // nothing a run started outlives it: its children, then what its tools keep for its session
  const active = [...record.children].filter(isActive);
  for (const child of active)
    host.abort(child, new ToolError('CANCELLED', `its parent "${record.agent}" (${record.id}) ended`));
  await Promise.all(active.map((child) => child.done));
  if (host.options.onSessionEnd)
    await settleWithin((async () => host.options.onSessionEnd?.(record.sessionId))(), grace);
  record.allowed = new Set();
  record.endedAt = host.now();
  host.ended(record);
  const tree = host.orchestrator.operationTree(record.sessionId);
  if (tree) record.node.children.push(...tree.children);
  host.orchestrator.endSession(record.sessionId);
  const node: OpNode = record.node;
  node.endedAt = record.endedAt;
  node.status = record.state === 'completed' ? 'ok' : record.state === 'cancelled' ? 'cancelled' : 'error';
  if (failure) node.attributes.code = failure.code;
  node.attributes.tokens = record.totals.totalTokens;
  node.attributes.iterations = record.iterations;
  const status = record.state as RunOutcome['status'];
  const outcome: RunOutcome = {
    id: record.id,
    agent: record.agent,
    status,
    ...(record.report ? { report: record.report } : {}),
    ...(failure ? { error: failure } : {}),
    iterations: record.iterations,
    usage: { ...record.totals },
    tree: node,
    ...(handedOffFrom.length > 0 ? { handedOffFrom } : {}),
  };
  const parent = record.parent;
  if (parent && record.background && !record.silent) {
    parent.queue ??= new AnnounceQueue(host.options.announce, host.now);
    parent.queue.push({
      childId: record.id,
      agent: record.agent,
      status,
      ...(record.report ? { report: record.report } : {}),
      ...(failure ? { error: failure } : {}),
    });
  }
  host.emit(record, {
    type: 'run-ended',
    status,
    ...(record.report ? { report: record.report } : {}),
    ...(failure ? { error: failure } : {}),
  });
  if (parent)
    host.emit(parent, {
      type: 'child-ended',
      childId: record.id,
      childAgent: record.agent,
      status,
      ...(failure ? { error: failure } : {}),
    });
  record.queue?.close();
  host.forget(record);
  return outcome;
}
