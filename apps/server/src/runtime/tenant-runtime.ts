import { randomUUID } from 'node:crypto';
import type {
  Executor,
  ProgressUpdate,
  ToolProvider,
  RegisteredTool,
  ToolContext,
  ToolResult,
  ToolSpec,
} from '@toolplane/core';
import { createRestProvider } from '@toolplane/rest-openapi';
import { type ToolsOrchestrator, createOrchestrator } from '@toolplane/orchestrator';
import { type PolicyConfig, createPolicy, policyMiddleware } from '@toolplane/policy';
import { type Scrubber, scrubberMiddleware } from '@toolplane/scrubber';
import { toCorePrincipal } from '../auth/core-principal.js';
import type { ServerPrincipal } from '../auth/principal.js';
import { CUSTOM_NAMESPACE, createCustomToolProvider } from '../custom-tools/custom-provider.js';
import type { CustomTool } from '../custom-tools/custom-tool.js';
import { type GrantDecision, evaluateGrant } from '../grants/evaluator.js';
import type { Grant } from '../grants/grant.js';
import { grantMiddleware } from '../grants/grant-middleware.js';
import type { ApprovalInbox } from '../approvals/approval-inbox.js';
import type { CallRecorder } from '../accounting/call-recorder.js';
import { recordCallsMiddleware } from '../accounting/record-calls-middleware.js';
import type { McpServerRecord } from '../mcp-servers/mcp-server-store.js';
import type { SharedMcpProviders } from '../mcp-servers/shared-mcp-providers.js';
import type { PerUserMcp } from '../mcp-oauth/per-user-mcp.js';
import { type LinkNeeded, UnlinkedServers } from '../mcp-oauth/unlinked-servers.js';
import type { RestProviderRecord } from '../rest-providers/rest-provider-store.js';
import type { SubagentTaskRegistry } from '../subagents/task-registry.js';
import type { TenantTasks } from '../subagents/tenant-tasks.js';

/** What a tenant's tools are built from (read from the database). */
export interface TenantState {
  readonly tenantId: string;
  readonly customTools: readonly CustomTool[];
  readonly mcpServers: readonly McpServerRecord[];
  readonly restProviders: readonly RestProviderRecord[];
  readonly grants: readonly Grant[];
}

/** How every tenant runtime is built. */
export interface RuntimeSettings {
  readonly executor: Executor;
  readonly scrubber: Scrubber;
  readonly policy: PolicyConfig;
  readonly defaultCwd: string;
  readonly callTimeoutMs: number;
  readonly maxOutputBytes: number;
  /** MCP server connections shared across runtimes (a stdio server runs once). */
  readonly mcpProviders: SharedMcpProviders;
  /** Per-user OAuth servers: each user's calls on that user's own connection. */
  readonly perUserMcp?: PerUserMcp;
  /** The embedding app's own providers, in every tenant. */
  readonly providers: readonly ToolProvider[];
  /** Where the policy's `ask` decisions wait for an admin. */
  readonly approvals: ApprovalInbox;
  /** How long an approval may wait before the call is denied. */
  readonly approvalTimeoutMs: number;
  /** Where finished calls are booked (batched to the database). */
  readonly recorder: CallRecorder;
  /** Subagent tasks of every tenant; absent when the server runs no subagents. */
  readonly subagents?: SubagentTaskRegistry;
}

/**
 * What a tool gets as `ctx.services.calls`: calls another tool for the same principal, in the
 * same session, as a child of the running call (the grant gate and policy apply as to any call).
 */
export interface NestedCalls {
  callFrom(parent: ToolContext, name: string, args: unknown): Promise<ToolResult>;
}

/** Options of one call through a tenant runtime. */
export interface RuntimeCallOptions {
  readonly signal?: AbortSignal;
  readonly progress?: (update: ProgressUpdate) => void;
  readonly sessionId?: string;
  /** The call's id (an approval is bound to it); one is made when absent. */
  readonly callId?: string;
}

/**
 * One tenant's tools: its custom tools and MCP servers in their own orchestrator (so nothing
 * of one tenant is ever in another's registry), behind the grant gate, the policy and the
 * scrubber. Calls in flight are counted so a replaced runtime closes only once they end.
 */
export class TenantRuntime {
  readonly tenantId: string;
  readonly orchestrator: ToolsOrchestrator;
  private grants: readonly Grant[];
  private readonly decisions = new Map<string, GrantDecision>();
  private readonly scopes: ReadonlyMap<string, string>;
  private inFlight = 0;
  private drained: (() => void) | undefined;

  constructor(state: TenantState, settings: RuntimeSettings) {
    this.tenantId = state.tenantId;
    this.grants = state.grants;
    this.scopes = new Map(
      state.customTools
        .filter((tool) => tool.scopeAgent !== null)
        .map((tool) => [`${CUSTOM_NAMESPACE}__${tool.name}`, tool.scopeAgent as string]),
    );
    this.orchestrator = createOrchestrator({
      timeoutMs: settings.callTimeoutMs,
      internalTools: false,
      output: { maxBytes: settings.maxOutputBytes },
      retry: { maxAttempts: 1 },
    });
    this.orchestrator.register(
      createCustomToolProvider({
        tools: state.customTools,
        executor: settings.executor,
        defaultCwd: settings.defaultCwd,
      }),
    );
    for (const server of state.mcpServers)
      this.orchestrator.register(
        server.auth === 'oauth-per-user' && settings.perUserMcp
          ? settings.perUserMcp.providerFor(state.tenantId, server)
          : settings.mcpProviders.acquire(state.tenantId, server.name, server.config),
      );
    for (const provider of settings.providers) this.orchestrator.register(borrowed(provider));
    for (const rest of state.restProviders)
      this.orchestrator.register(
        createRestProvider({ namespace: rest.name, tools: rest.tools, env: rest.env }),
      );
    const perUser = state.mcpServers.filter((server) => server.auth === 'oauth-per-user');
    if (perUser.length > 0 && settings.perUserMcp)
      this.unlinked = new UnlinkedServers({
        tenantId: state.tenantId,
        servers: perUser.map((server) => server.name),
        perUserMcp: settings.perUserMcp,
        decide: (principal, tool) => this.decide(principal, tool),
        registered: () => this.orchestrator.listRegistered().map((tool) => tool.name),
      });
    this.tasks = settings.subagents?.forTenant(state.tenantId);
    this.tasks?.register(this.orchestrator);
    this.orchestrator.use(recordCallsMiddleware(state.tenantId, settings.recorder));
    this.orchestrator.use(grantMiddleware((principal, tool) => this.decide(principal, tool)));
    const policy = createPolicy(settings.policy);
    this.orchestrator.use(policyMiddleware(policy, { approvalTimeoutMs: settings.approvalTimeoutMs }));
    this.approvals = settings.approvals;
    this.orchestrator.use(scrubberMiddleware(settings.scrubber));
    this.policy = policy;
  }

  private readonly policy: ReturnType<typeof createPolicy>;
  private readonly tasks: TenantTasks | undefined;
  private readonly unlinked: UnlinkedServers | undefined;
  private readonly nested: NestedCalls = {
    callFrom: (parent, name, args) => this.orchestrator.callFrom(parent, name, args),
  };
  private readonly approvals: ApprovalInbox;

  /** Starts the providers; a provider that fails is reported and its tools are absent. */
  async start(): Promise<void> {
    await this.orchestrator.warmup();
    this.policy.setTools(this.orchestrator.listRegistered());
    this.tasks?.attach(this.orchestrator);
  }

  /**
   * The single grant decision every path uses. Decisions are kept per (principal, tool) until
   * the grants change ({@link setGrants}); the tools' scopes are fixed for a runtime's life.
   */
  decide(principal: ServerPrincipal, tool: Pick<RegisteredTool, 'name'>): GrantDecision {
    if (principal.tenantId !== this.tenantId) return { allowed: false, reason: 'not_granted' };
    const key = `${principal.kind}\u0000${principal.id}\u0000${tool.name}`;
    const known = this.decisions.get(key);
    if (known) return known;
    const scopeAgent = this.scopes.get(tool.name);
    const decision = evaluateGrant(
      principal,
      tool.name,
      this.grants,
      scopeAgent === undefined ? {} : { scopeAgent },
    );
    if (this.decisions.size >= MAX_KEPT_DECISIONS) this.decisions.clear();
    this.decisions.set(key, decision);
    return decision;
  }

  /** Replaces the grants (after a grant changed) without rebuilding the tools. */
  setGrants(grants: readonly Grant[]): void {
    this.grants = grants;
    this.decisions.clear();
  }

  /** The tools this principal sees, after grants and policy. */
  listTools(principal: ServerPrincipal): readonly ToolSpec[] {
    return this.orchestrator.listTools({
      principal: toCorePrincipal(principal),
      session: { id: sessionOf(principal), depth: 0 },
    });
  }

  /** The per-user OAuth servers this principal's grants reach and it has not linked. */
  linksNeeded(principal: ServerPrincipal): Promise<LinkNeeded[]> {
    return this.unlinked ? this.unlinked.waiting(principal) : Promise.resolve([]);
  }

  /** Calls a tool for this principal through the full pipeline. */
  async call(
    principal: ServerPrincipal,
    name: string,
    args: unknown,
    options: RuntimeCallOptions = {},
  ): Promise<ToolResult> {
    this.inFlight += 1;
    const callId = options.callId ?? `call_${randomUUID()}`;
    try {
      const result = await this.orchestrator.call(name, args, {
        callId,
        services: { approvals: this.approvals.channelFor(callId), calls: this.nested },
        // a call from a client is the root of its own operation tree
        trace: { originId: callId },
        principal: toCorePrincipal(principal),
        session: { id: options.sessionId ?? sessionOf(principal) },
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.progress ? { progress: options.progress } : {}),
      });
      // a per-user server's tools may not be known yet: tell the user to link, not "no such tool"
      if (this.unlinked && !result.ok && result.error.code === 'TOOL_NOT_FOUND')
        return (await this.unlinked.answerFor(principal, name)) ?? result;
      return result;
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.drained?.();
    }
  }

  /** Calls in flight. */
  get activeCalls(): number {
    return this.inFlight;
  }

  /**
   * Waits for the calls in flight (up to `deadlineMs`), then closes the orchestrator, which
   * cancels what is left and stops every provider and child process.
   */
  async close(deadlineMs: number): Promise<void> {
    if (this.inFlight > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((done) => {
        this.drained = done;
        timer = setTimeout(done, deadlineMs);
      });
      clearTimeout(timer);
    }
    await this.orchestrator.close();
  }
}

/** Grant decisions a runtime keeps at most (all are dropped past it, and on any grant change). */
const MAX_KEPT_DECISIONS = 50_000;

function sessionOf(principal: ServerPrincipal): string {
  return `${principal.tenantId}/${principal.kind}/${principal.id}`;
}

/** The embedder's provider as a runtime registers it: the embedder closes it, not the runtime. */
function borrowed(provider: ToolProvider): ToolProvider {
  return new Proxy(provider, {
    get(target, property) {
      if (property === 'close') return undefined;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
