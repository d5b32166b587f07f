import { type AgentRunner, createAgentRegistry, createOpenAIRunner } from '@toolplane/subagents';
import type { ServerSubagentOptions } from './subagent-options.js';
import { TenantTasks } from './tenant-tasks.js';

/** The subagent tasks of every tenant, each tenant's made when its runtime is first built. */
export class SubagentTaskRegistry {
  private readonly tenants = new Map<string, TenantTasks>();
  private readonly runner: AgentRunner;

  constructor(private readonly options: ServerSubagentOptions) {
    // a bad definition fails the start (CONFIG_INVALID), not a tenant's first request
    createAgentRegistry(options.agents);
    this.runner = options.runner ?? createOpenAIRunner(options.endpoint ?? {});
  }

  /** The tenant's tasks (made on first use). */
  forTenant(tenantId: string): TenantTasks {
    let tasks = this.tenants.get(tenantId);
    if (!tasks) {
      tasks = new TenantTasks(this.options, this.runner);
      this.tenants.set(tenantId, tasks);
    }
    return tasks;
  }

  /** The tenant's tasks if any were made. */
  existing(tenantId: string): TenantTasks | undefined {
    return this.tenants.get(tenantId);
  }

  /** Cancels every running task of every tenant and waits for them. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.tenants.values()].map((tasks) => tasks.close()));
  }
}
