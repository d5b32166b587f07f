import { randomUUID } from 'node:crypto';
import { listCustomTools } from '../custom-tools/custom-tool-store.js';
import { listGrants } from '../grants/grant-store.js';
import { listMcpServers } from '../mcp-servers/mcp-server-store.js';
import { listRestProviders } from '../rest-providers/rest-provider-store.js';
import type { Cipher } from '../secrets/cipher.js';
import type { Database } from '../storage/database.js';
import { isResync } from '../storage/resync.js';
import { type RuntimeSettings, TenantRuntime } from './tenant-runtime.js';

/**
 * The tenant runtimes, built on first use. A change to custom tools or MCP servers builds a
 * fresh runtime from the database and swaps it in (the old one finishes its calls, then
 * closes); a change to grants updates the running one. No restart either way.
 */
export class RuntimeRegistry {
  private readonly runtimes = new Map<string, Promise<TenantRuntime>>();
  private readonly retiring = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly cipher: Cipher,
    private readonly settings: RuntimeSettings,
    private readonly drainMs: number,
  ) {}

  private async build(tenantId: string): Promise<TenantRuntime> {
    const [customTools, mcpServers, restProviders, grants] = [
      await listCustomTools(this.db, this.cipher, tenantId),
      await listMcpServers(this.db, this.cipher, tenantId),
      await listRestProviders(this.db, this.cipher, tenantId),
      await listGrants(this.db, tenantId),
    ];
    for (const rest of restProviders)
      for (const value of Object.values(rest.env))
        if (value.length >= 8) this.settings.scrubber.addSecret(value);
    for (const tool of customTools)
      for (const value of Object.values(tool.env))
        if (value.length >= 8) this.settings.scrubber.addSecret(value);
    const runtime = new TenantRuntime(
      { tenantId, customTools, mcpServers, restProviders, grants },
      this.settings,
    );
    await runtime.start();
    return runtime;
  }

  /** The tenant's runtime, built when first asked for. */
  get(tenantId: string): Promise<TenantRuntime> {
    let runtime = this.runtimes.get(tenantId);
    if (!runtime) {
      runtime = this.build(tenantId);
      this.runtimes.set(tenantId, runtime);
      // a failed build is not kept: the next request tries again
      runtime.catch(() => this.runtimes.get(tenantId) === runtime && this.runtimes.delete(tenantId));
    }
    return runtime;
  }

  /** The channel on which instances tell each other about changes. */
  static readonly CHANNEL = 'toolplane_changes';
  private readonly origin = randomUUID();

  /**
   * Follows the changes other instances on the same database make (custom tools, providers,
   * grants), so each is seen everywhere without a restart.
   */
  async follow(onError: (error: unknown) => void): Promise<void> {
    await this.db.listen(RuntimeRegistry.CHANNEL, (payload) => {
      if (isResync(payload)) {
        // changes may have been missed while the listening connection was down
        if (!this.closed)
          for (const tenantId of [...this.runtimes.keys()]) this.rebuild(tenantId).catch(onError);
        return;
      }
      let change: { origin?: string; tenantId?: string; what?: string };
      try {
        change = JSON.parse(payload) as typeof change;
      } catch {
        return;
      }
      if (change.origin === this.origin || typeof change.tenantId !== 'string' || this.closed) return;
      const apply =
        change.what === 'grants' ? this.refreshGrants(change.tenantId) : this.rebuild(change.tenantId);
      apply.catch(onError);
    });
  }

  private async announce(tenantId: string, what: 'tools' | 'grants'): Promise<void> {
    await this.db.notify(RuntimeRegistry.CHANNEL, JSON.stringify({ origin: this.origin, tenantId, what }));
  }

  /** Rebuilds the tenant's tools after a custom tool or provider changed, here and in every instance. */
  async reloadTools(tenantId: string): Promise<void> {
    await this.rebuild(tenantId);
    await this.announce(tenantId, 'tools');
  }

  /** Refreshes the tenant's grants, here and in every instance. */
  async reloadGrants(tenantId: string): Promise<void> {
    await this.refreshGrants(tenantId);
    await this.announce(tenantId, 'grants');
  }

  private async rebuild(tenantId: string): Promise<void> {
    if (this.closed) return;
    const previous = this.runtimes.get(tenantId);
    const next = this.build(tenantId);
    this.runtimes.set(tenantId, next);
    try {
      await next;
    } catch (error) {
      // the running tools stay (or the next request builds them) when a rebuild fails
      if (this.runtimes.get(tenantId) === next)
        if (previous) this.runtimes.set(tenantId, previous);
        else this.runtimes.delete(tenantId);
      throw error;
    }
    if (previous) this.retire(previous);
  }

  private async refreshGrants(tenantId: string): Promise<void> {
    const runtime = this.runtimes.get(tenantId);
    if (!runtime) return;
    (await runtime).setGrants(await listGrants(this.db, tenantId));
  }

  private retire(runtime: Promise<TenantRuntime>): void {
    const closing = runtime.then(
      (old) => old.close(this.drainMs),
      () => undefined,
    );
    this.retiring.add(closing);
    void closing.finally(() => this.retiring.delete(closing));
  }

  /** Calls in flight over every tenant. */
  async activeCalls(): Promise<number> {
    let total = 0;
    for (const runtime of this.runtimes.values())
      total += await runtime.then(
        (r) => r.activeCalls,
        () => 0,
      );
    return total;
  }

  /** Lets calls finish up to the deadline, then closes every runtime and its providers. */
  async close(deadlineMs: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const all = [...this.runtimes.values()];
    this.runtimes.clear();
    await Promise.all(
      all.map((runtime) =>
        runtime.then(
          (r) => r.close(deadlineMs),
          () => undefined,
        ),
      ),
    );
    await Promise.all([...this.retiring]);
  }
}
