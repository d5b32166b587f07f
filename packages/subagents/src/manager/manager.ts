import {
  type Middleware,
  type SessionInfo,
  type ToolContext,
  ToolError,
  createId,
  createOpNode,
  fail,
  onAbort,
} from '@toolplane/core';
import type { ToolsOrchestrator } from '@toolplane/orchestrator';
import { stricterMode } from '@toolplane/policy';
import type { AgentDefinition } from '../definitions/definition.js';
import { type AgentRegistry, createAgentRegistry } from '../definitions/registry.js';
import type { AgentInbox, AgentRunner, AgentStepEvent } from '../runner/runner-types.js';
import { childApprovalChannel } from './approvals.js';
import { ChildToolPolicies } from './child-tools.js';
import { type SubagentLimits, admit, resolveLimits } from './limits.js';
import {
  type RunOutcome,
  type RunRecord,
  type SubagentHandle,
  type SubagentInfo,
  handleOf,
  isActive,
  toInfo,
} from './records.js';
import type { RunAgentOptions, SpawnRequest, SubagentManagerOptions } from './options.js';
import { type RunHost, executeRun } from './run-execution.js';
import { abortRun, addRunUsage, appRecord, emitStep, inboxFor, rootRecord } from './run-tree.js';
import { delay } from './settle.js';
import { type SubagentUsage, emptyUsage } from './usage.js';

const DEFAULT_SYSTEM_PROMPT =
  'You are an agent with tools. Work on the task; use subagents (agent__ tools, subagents__spawn) for separable parts. ' +
  'End by calling agent__final_report.';

const NOOP = (): void => {};

/**
 * Runs child agents as tools: the lifecycle, the limits (checked in one place for every spawn
 * path), cancel and steer, announcements, accounting and operation trees.
 *
 * @example
 * const manager = new SubagentManager({ orchestrator, runner: createOpenAIRunner(), agents: [researcher] });
 * const outcome = await manager.runAgent({ task: 'Summarise README.md', onStep: console.log });
 */
export class SubagentManager {
  readonly limits: SubagentLimits;
  readonly agents: AgentRegistry;
  private readonly orchestrator: ToolsOrchestrator;
  private readonly runner: AgentRunner;
  private readonly policies: ChildToolPolicies;
  private readonly byId = new Map<string, RunRecord>();
  private readonly bySession = new Map<string, RunRecord>();
  private readonly archive: RunRecord[] = [];
  private running = 0;
  private closed = false;
  private readonly now: () => number;
  private readonly host: RunHost;

  constructor(private readonly options: SubagentManagerOptions) {
    this.orchestrator = options.orchestrator;
    this.runner = options.runner;
    this.limits = resolveLimits(options.limits);
    const agents = options.agents;
    this.agents =
      agents === undefined || Array.isArray(agents)
        ? createAgentRegistry(agents as readonly AgentDefinition[] | undefined)
        : (agents as AgentRegistry);
    this.policies = new ChildToolPolicies(this.limits.maxSpawnDepth, options.toolLists);
    this.now = options.now ?? Date.now;
    this.host = {
      orchestrator: this.orchestrator,
      runner: this.runner,
      agents: this.agents,
      limits: this.limits,
      policies: this.policies,
      options,
      now: this.now,
      abort: (record, reason) => this.abort(record, reason),
      emit: (record, event) => this.emit(record, event),
      addUsage: (record, delta) => this.addUsage(record, delta),
      inboxOf: (record) => this.inboxOf(record),
      ended: (record) => {
        if (record.kind === 'child') this.running--;
      },
      forget: (record) => {
        if (record.kind !== 'root') return;
        this.bySession.delete(record.sessionId);
        this.byId.delete(record.id);
      },
    };
  }

  /** Subagents spawning or running now, across all parents. */
  get runningCount(): number {
    return this.running;
  }

  /**
   * Starts a subagent. Every spawn path comes here: the admission check refuses with `DENIED`
   * naming the limit. Resolves the record at once; its `done` settles when the run ends.
   */
  spawn(request: SpawnRequest): SubagentHandle {
    return handleOf(this.start(request));
  }

  private start(request: SpawnRequest, steeredFrom?: string): RunRecord {
    if (this.closed)
      throw new ToolError('PROVIDER_UNAVAILABLE', 'the subagent manager is closed', { retryable: false });
    this.sweep();
    const parent = this.parentOf(request.parent);
    const definition = this.agents.get(request.agent);
    let underParent = 0;
    for (const child of parent.children) if (isActive(child)) underParent++;
    admit(this.limits, {
      agent: request.agent,
      known: definition !== undefined,
      parentDepth: parent.depth,
      ancestors: parent.lineage,
      runningInAll: this.running,
      runningUnderParent: underParent,
    });
    const def = definition as AgentDefinition;
    const id = createId('sub');
    const ctx = request.parent;
    const parentMode = ctx.session.mode;
    const mode = def.mode ? stricterMode(def.mode, parentMode ?? 'default') : parentMode;
    const session: SessionInfo = {
      id,
      depth: parent.depth + 1,
      parentId: parent.sessionId,
      ...(mode ? { mode } : {}),
    };
    const lineage = [...parent.lineage, def.name];
    const rootApprovals = parent.rootApprovals ?? ctx.services.approvals;
    const services: Record<string, unknown> = { ...ctx.services };
    delete services.approvals;
    if (rootApprovals)
      services.approvals = childApprovalChannel(rootApprovals, {
        id,
        agent: def.name,
        depth: session.depth,
        lineage,
      });
    const record: RunRecord = {
      id,
      sessionId: id,
      agent: def.name,
      task: request.task,
      ...(request.label ? { label: request.label } : {}),
      kind: 'child',
      background: request.background === true,
      depth: session.depth,
      parent,
      lineage,
      state: 'spawning',
      archived: false,
      createdAt: this.now(),
      iterations: 0,
      own: emptyUsage(),
      totals: emptyUsage(),
      controller: new AbortController(),
      children: new Set(),
      node: createOpNode('session', `agent__${def.name}`, id, this.now()),
      session,
      principal: ctx.principal,
      services,
      trace: { originId: ctx.trace.originId, parentId: ctx.callId, callPath: [...ctx.trace.callPath] },
      ...(rootApprovals ? { rootApprovals } : {}),
      silent: false,
      ...(request.background ? {} : { caller: ctx }),
      ...(steeredFrom ? { steeredFrom } : {}),
    };
    record.node.attributes.agent = def.name;
    record.node.attributes.depth = session.depth;
    parent.children.add(record);
    parent.lastChild = record;
    this.byId.set(id, record);
    this.bySession.set(id, record);
    this.running++;
    for (let up: RunRecord | undefined = parent; up; up = up.parent) up.totals.runs++;
    ctx.op?.attach(record.node);
    this.emit(parent, { type: 'child-spawned', childId: id, childAgent: def.name, task: request.task });
    record.done = executeRun(this.host, record, def);
    return record;
  }

  /** Spawns and waits: the outcome of the run (the caller's cancel cancels it). */
  async run(request: SpawnRequest): Promise<RunOutcome> {
    const record = this.start({ ...request, background: false });
    return record.done as Promise<RunOutcome>;
  }

  /** A root run: the agent loop on `task` with the orchestrator's tools; what the CLI calls. */
  async runAgent(options: RunAgentOptions): Promise<RunOutcome> {
    if (this.closed)
      throw new ToolError('PROVIDER_UNAVAILABLE', 'the subagent manager is closed', { retryable: false });
    let definition: AgentDefinition | undefined;
    if (options.agent !== undefined) {
      definition = this.agents.get(options.agent);
      if (!definition) throw new ToolError('CONFIG_INVALID', `there is no agent named "${options.agent}"`);
    }
    const sessionId = options.sessionId ?? createId('run');
    if (this.bySession.has(sessionId))
      throw new ToolError('INVALID_ARGUMENTS', `session "${sessionId}" is already running an agent`);
    const name = definition?.name ?? 'main';
    const def: AgentDefinition = definition ?? {
      name,
      description: 'the root agent',
      systemPrompt: options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
      ...(options.model ? { model: options.model } : {}),
      ...(options.tools ? { tools: options.tools } : {}),
    };
    const services = options.services;
    const record = rootRecord(options, {
      sessionId,
      name,
      lineage: definition ? [definition.name] : [],
      now: this.now(),
    });
    this.byId.set(sessionId, record);
    this.bySession.set(sessionId, record);
    const stop = options.signal
      ? onAbort({ signal: options.signal }, () =>
          this.abort(record, new ToolError('CANCELLED', 'the run was cancelled')),
        )
      : NOOP;
    try {
      record.done = executeRun(this.host, record, def, {
        maxIterations: options.maxIterations,
        rootServices: services !== undefined,
      });
      return await record.done;
    } finally {
      stop();
    }
  }

  /** The subagents a session spawned (its children), newest last; archived ones on request. */
  list(sessionId: string, options: { includeArchived?: boolean } = {}): SubagentInfo[] {
    this.sweep();
    const parent = this.bySession.get(sessionId);
    const live = parent ? [...parent.children].map(toInfo) : [];
    if (!options.includeArchived) return live;
    return [...this.archive.filter((record) => record.parent?.sessionId === sessionId).map(toInfo), ...live];
  }

  /** One subagent (archived ones too). */
  get(id: string): SubagentInfo | undefined {
    const record = this.byId.get(id) ?? this.archive.find((each) => each.id === id);
    return record ? toInfo(record) : undefined;
  }

  /** Waits for a subagent's end. */
  wait(id: string): Promise<RunOutcome> {
    const record = this.byId.get(id);
    if (!record?.done)
      return Promise.reject(
        new ToolError('INVALID_ARGUMENTS', `no running or recent subagent has id "${id}"`),
      );
    return record.done;
  }

  /** A session's usage: its own plus every descendant's. */
  usage(sessionId: string): SubagentUsage | undefined {
    const record = this.bySession.get(sessionId);
    return record ? { ...record.totals } : undefined;
  }

  /** Where a session hears of its background children's results. */
  inbox(sessionId: string): AgentInbox {
    const record = this.bySession.get(sessionId);
    if (!record) return { pending: () => 0, take: () => [], next: () => Promise.resolve([]) };
    return this.inboxOf(record);
  }

  /**
   * Cancels a session's subagents: one by id, `all`, or `last` (the most recently spawned that
   * still runs). Resolves with the ids cancelled once they have stopped.
   */
  async cancel(sessionId: string, target: string, reason = 'cancelled by its parent'): Promise<string[]> {
    const parent = this.bySession.get(sessionId);
    const active = parent ? [...parent.children].filter(isActive) : [];
    let chosen: RunRecord[];
    if (target === 'all') chosen = active;
    else if (target === 'last') chosen = active.length > 0 ? [active[active.length - 1] as RunRecord] : [];
    else {
      const record = parent ? [...parent.children].find((child) => child.id === target) : undefined;
      if (!record)
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `this agent has no subagent "${target.slice(0, 100)}"; list shows the ids`,
        );
      chosen = isActive(record) ? [record] : [];
    }
    for (const record of chosen) this.abort(record, new ToolError('CANCELLED', reason));
    await Promise.all(chosen.map((record) => record.done));
    return chosen.map((record) => record.id);
  }

  /** Cancel, settle, respawn with the new message: the respawned subagent runs in the background. */
  async steer(parent: ToolContext, id: string, message: string): Promise<SubagentHandle> {
    const owner = this.bySession.get(parent.session.id);
    const record = owner ? [...owner.children].find((child) => child.id === id) : undefined;
    if (!record)
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `this agent has no subagent "${id.slice(0, 100)}"; list shows the ids`,
      );
    record.silent = true;
    this.abort(record, new ToolError('CANCELLED', 'steered: replaced by a new run with a new message'));
    await record.done;
    await delay(this.options.settleMs ?? 500);
    const task = `${message}\n\n(Your earlier task, now replaced: ${record.task})`;
    return handleOf(
      this.start(
        {
          agent: record.agent,
          task,
          ...(record.label ? { label: record.label } : {}),
          background: true,
          parent,
        },
        id,
      ),
    );
  }

  /** Ends a session that spawned: its running subagents are cancelled and waited for. */
  async endSession(sessionId: string): Promise<void> {
    const record = this.bySession.get(sessionId);
    if (!record) return;
    const active = [...record.children].filter(isActive);
    for (const child of active) this.abort(child, new ToolError('CANCELLED', 'its parent session ended'));
    await Promise.all(active.map((child) => child.done));
    record.queue?.close();
    if (record.kind === 'root' && !record.done) {
      this.bySession.delete(sessionId);
      this.byId.delete(sessionId);
    }
  }

  /** The gate that keeps each run to its tool list (batch calls included); registered by `createSubagents`. */
  middleware(): Middleware {
    return {
      name: 'subagents',
      phase: 'gate',
      filterTools: (tools, view) => {
        const allowed = this.bySession.get(view.session.id)?.allowed;
        return allowed ? tools.filter((tool) => allowed.has(tool.name)) : tools;
      },
      handle: (call, next) => {
        const record = this.bySession.get(call.ctx.session.id);
        if (record?.allowed && !record.allowed.has(call.tool.name)) {
          const why = isActive(record) ? 'is not in its tool list' : 'cannot run: the agent has ended';
          return Promise.resolve(
            fail(
              'DENIED',
              `agent "${record.agent}" (${record.id}) may not call ${call.tool.name}: it ${why}`,
            ),
          );
        }
        return next(call);
      },
    };
  }

  /** Cancels every run and forgets them. */
  async close(): Promise<void> {
    this.closed = true;
    const active = [...this.byId.values()].filter((record) => isActive(record));
    for (const record of active)
      this.abort(record, new ToolError('CANCELLED', 'the subagent manager closed'));
    await Promise.all(active.map((record) => record.done));
    for (const record of this.byId.values()) record.queue?.close();
  }

  private parentOf(ctx: ToolContext): RunRecord {
    const known = this.bySession.get(ctx.session.id);
    if (known) return known;
    const record = appRecord(ctx, (name) => this.agents.has(name), this.now());
    this.bySession.set(record.sessionId, record);
    return record;
  }

  private abort(record: RunRecord, reason: ToolError): boolean {
    return abortRun(record, reason);
  }

  private emit(record: RunRecord, event: AgentStepEvent): void {
    emitStep(record, event, this.options.onStep);
  }

  private addUsage(record: RunRecord, delta: Partial<SubagentUsage>): void {
    addRunUsage(record, delta, (run) =>
      Math.min(
        this.limits.maxTokensPerChild,
        this.agents.get(run.agent)?.budgets?.maxTokens ?? Number.POSITIVE_INFINITY,
      ),
    );
  }

  private inboxOf(record: RunRecord): AgentInbox {
    return inboxFor(record, this.options.announce, this.now);
  }

  private sweep(): void {
    const now = this.now();
    for (const record of this.byId.values()) {
      if (record.endedAt === undefined || now - record.endedAt < this.limits.archiveAfterMs) continue;
      record.archived = true;
      this.byId.delete(record.id);
      this.bySession.delete(record.sessionId);
      record.parent?.children.delete(record);
      this.archive.push(record);
      if (this.archive.length > 1000) this.archive.splice(0, this.archive.length - 1000);
    }
  }
}
