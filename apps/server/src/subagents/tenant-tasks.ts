import { type Middleware, type Principal, createToolContext } from '@toolplane/core';
import type { ToolsOrchestrator } from '@toolplane/orchestrator';
import {
  type AgentRunner,
  type AgentStep,
  type FinalReport,
  SubagentManager,
  type SubagentInfo,
  createActionProvider,
  createAgentProvider,
} from '@toolplane/subagents';
import { fromCorePrincipal } from '../auth/core-principal.js';
import type { ServerPrincipal } from '../auth/principal.js';
import type { ServerSubagentOptions } from './subagent-options.js';

/** Ended tasks kept per tenant for the routes (the oldest are forgotten first). */
const MAX_KEPT_TASKS = 1000;

/** Who started a task: the session its spawning call ran in, and that call's principal. */
interface TaskOwner {
  readonly session: string;
  readonly principal: Principal;
  report?: FinalReport;
}

/** A task as the routes see it: the manager's view, its owner and its report once it ended. */
export interface TaskView extends SubagentInfo {
  readonly owner: ServerPrincipal | undefined;
  readonly report?: FinalReport;
}

/**
 * One tenant's subagent tasks. The manager outlives the tenant's runtimes: a change to the
 * tenant's tools builds a new orchestrator, and the manager (so every running task) moves to it
 * through a forwarding handle instead of being closed with the old one.
 */
export class TenantTasks {
  readonly manager: SubagentManager;
  private current: ToolsOrchestrator | undefined;
  private readonly owners = new Map<string, TaskOwner>();
  private readonly sessions = new Map<string, Principal>();

  constructor(options: ServerSubagentOptions, runner: AgentRunner) {
    const forward = new Proxy({} as ToolsOrchestrator, {
      get: (_target, property) => {
        const orchestrator = this.current;
        if (!orchestrator) throw new Error('no tenant runtime is attached to the subagent tasks');
        const value = Reflect.get(orchestrator, property, orchestrator) as unknown;
        return typeof value === 'function'
          ? (value as (...args: unknown[]) => unknown).bind(orchestrator)
          : value;
      },
    });
    this.manager = new SubagentManager({
      orchestrator: forward,
      runner,
      agents: options.agents,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
      onStep: (step) => this.follow(step),
    });
  }

  /** Registers the subagent tools and the children's gate on a runtime's new orchestrator. */
  register(orchestrator: ToolsOrchestrator): void {
    orchestrator.register(createAgentProvider(this.manager));
    orchestrator.register(createActionProvider(this.manager));
    orchestrator.use(this.ownerMiddleware());
    orchestrator.use(this.manager.middleware());
    this.current ??= orchestrator;
  }

  /** Makes a started runtime's orchestrator the one every task's calls go to from now on. */
  attach(orchestrator: ToolsOrchestrator): void {
    this.current = orchestrator;
  }

  /** The tasks `principal` may see: its own, or every task of the tenant for an admin. */
  list(principal: ServerPrincipal): TaskView[] {
    const views: TaskView[] = [];
    for (const [id, owner] of this.owners) {
      const info = this.manager.get(id);
      if (!info) {
        this.owners.delete(id);
        continue;
      }
      if (mayUse(principal, owner)) views.push(viewOf(info, owner));
    }
    return views;
  }

  /** One task, if `principal` may see it. */
  get(principal: ServerPrincipal, id: string): TaskView | undefined {
    const owner = this.owners.get(id);
    const info = owner ? this.manager.get(id) : undefined;
    if (!owner || !info || !mayUse(principal, owner)) return undefined;
    return viewOf(info, owner);
  }

  /** Cancels a running task and resolves once it stopped; false when it had already ended. */
  async cancel(id: string, reason: string): Promise<boolean> {
    const owner = this.owners.get(id);
    if (!owner) return false;
    const cancelled = await this.manager.cancel(owner.session, id, reason);
    return cancelled.includes(id);
  }

  /**
   * Cancels a task and starts it again with `message` in front of its task, as its owner (the
   * new run has a new id and `steeredFrom` naming the old one).
   */
  async steer(id: string, message: string): Promise<string | undefined> {
    const owner = this.owners.get(id);
    if (!owner) return undefined;
    const parent = createToolContext({
      principal: owner.principal,
      session: { id: owner.session, depth: 0 },
      trace: { originId: owner.session },
    });
    const handle = await this.manager.steer(parent, id, message);
    return handle.id;
  }

  /** Cancels every running task and waits for them. */
  close(): Promise<void> {
    return this.manager.close();
  }

  private follow(step: AgentStep): void {
    if (step.type === 'child-spawned') {
      const parent = this.owners.get(step.runId);
      const session = parent?.session ?? step.runId;
      const principal = parent?.principal ?? this.sessions.get(step.runId);
      if (!principal) return;
      this.owners.set(step.childId, { session, principal });
      this.trim();
    } else if (step.type === 'run-ended' && step.report) {
      const owner = this.owners.get(step.runId);
      if (owner) owner.report = step.report;
    }
  }

  private trim(): void {
    if (this.owners.size <= MAX_KEPT_TASKS) return;
    for (const id of this.owners.keys()) {
      if (this.owners.size <= MAX_KEPT_TASKS) break;
      const state = this.manager.get(id)?.state;
      if (state !== 'running' && state !== 'spawning') this.owners.delete(id);
    }
  }

  /** Learns which principal a spawning session belongs to, from its calls of subagent tools. */
  private ownerMiddleware(): Middleware {
    return {
      name: 'subagent-owners',
      phase: 'observe',
      handle: (call, next) => {
        const name = call.tool.name;
        if (name.startsWith('agent__') || name.startsWith('subagents__'))
          if (!this.owners.has(call.ctx.session.id))
            this.sessions.set(call.ctx.session.id, call.ctx.principal);
        return next(call);
      },
    };
  }
}

function mayUse(principal: ServerPrincipal, owner: TaskOwner): boolean {
  if (principal.kind === 'admin') return true;
  const who = fromCorePrincipal(owner.principal);
  return who !== undefined && who.kind === principal.kind && who.id === principal.id;
}

function viewOf(info: SubagentInfo, owner: TaskOwner): TaskView {
  return {
    ...info,
    owner: fromCorePrincipal(owner.principal),
    ...(owner.report ? { report: owner.report } : {}),
  };
}
