import { type ToolSpec, stableStringify } from '@toolplane/core';
import type { McpServerConfig } from './config/types.js';
import type { McpProviderEvent } from './lifecycle/events.js';
import type { ServerConnection } from './lifecycle/server-connection.js';
import { type CachedToolList, readToolCache, writeToolCache } from './lifecycle/tool-cache.js';
import type { McpServerIdentity, McpSession, McpToolDefinition } from './session/session.js';
import { isSessionExpired, listingError } from './tools/call-errors.js';
import { type CatalogEntry, buildCatalog } from './tools/catalog.js';
import { listAllTools } from './tools/list-all.js';
import { RESOURCE_TOOL_NAMES, resourceToolSpecs } from './tools/resource-tools.js';

/** Options of {@link ProviderTools}. */
export interface ProviderToolsOptions {
  readonly server: string;
  readonly config: McpServerConfig;
  readonly connection: ServerConnection;
  readonly emit: (event: McpProviderEvent) => void;
  readonly requestTimeoutMs: number;
  /** A lazy server's tool cache file. */
  readonly cachePath?: string;
}

/**
 * A provider's tools: the catalog of the server's last listing (local names, specs, definition
 * hashes compared with the first listing or a lazy server's cache), how it is listed again (on a
 * new session, on `list_changed`, on request), and who hears that it changed.
 */
export class ProviderTools {
  /** The local specs of the last listing. */
  specs: readonly ToolSpec[] = [];
  /** What the server said when it initialized (from the cache for a lazy server not started). */
  identity: McpServerIdentity | undefined;
  /** Whether the tools were listed (or read from a lazy server's cache). */
  listed = false;
  private entries: CatalogEntry[] = [];
  private byName = new Map<string, CatalogEntry>();
  private knownHashes: Map<string, string> | undefined;
  private readonly listeners = new Set<() => void>();
  private closed = false;
  // A storm of list_changed notifications makes one listing at a time, plus one after it for
  // whatever changed meanwhile, not one listing per notification.
  private refreshing = false;
  private refreshAgain: { session: McpSession; renew: boolean } | undefined;
  private readonly unsubscribe: Array<() => void>;

  constructor(private readonly options: ProviderToolsOptions) {
    const { connection } = options;
    this.unsubscribe = [
      connection.onSessionOpened((session) => {
        this.identity = session.identity;
        // The first listing is done by start(); later sessions (restarts, lazy starts) refresh.
        if (this.listed && !this.closed) this.refreshInBackground(session, false);
      }),
      connection.onToolsChanged(() => {
        const session = connection.session;
        if (session && !this.closed) this.refreshInBackground(session, true);
      }),
    ];
  }

  /** The catalog entry of a local tool name. */
  entry(localName: string): CatalogEntry | undefined {
    return this.byName.get(localName);
  }

  /** Adds a listener told when the specs change; returns its remover. */
  onChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes a lazy server's tools from its cache; false when there is none. */
  async loadCache(): Promise<boolean> {
    const { cachePath } = this.options;
    if (!cachePath) return false;
    const cached = await readToolCache(cachePath);
    if (!cached) return false;
    this.knownHashes = new Map(cached.tools.map((tool) => [tool.definition.name, tool.hash]));
    this.apply(
      cached.tools.map((tool) => tool.definition),
      cached.identity,
    );
    this.listed = true;
    return true;
  }

  /** Lists the tools of `session`; what it throws is a `ToolError` with a stable code. */
  async refreshOrThrow(session: McpSession, signal?: AbortSignal): Promise<void> {
    try {
      await this.refresh(session, signal);
    } catch (error) {
      const { server, requestTimeoutMs, connection } = this.options;
      throw listingError(error, {
        server,
        timeoutMs: requestTimeoutMs,
        signal,
        ...(connection.lastError ? { lostReason: connection.lastError } : {}),
      });
    }
  }

  /** Stops listening to the connection (a shared one outlives the provider) and to listeners. */
  close(): void {
    this.closed = true;
    this.listeners.clear();
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }

  private apply(definitions: readonly McpToolDefinition[], serverIdentity: McpServerIdentity): boolean {
    const { server, config, emit } = this.options;
    const withResources = serverIdentity.hasResources && config.resources !== false;
    const reserved = withResources ? [RESOURCE_TOOL_NAMES.list, RESOURCE_TOOL_NAMES.read] : [];
    const next = buildCatalog(definitions, {
      server,
      config,
      reserved,
      ...(this.knownHashes ? { knownHashes: this.knownHashes } : {}),
    });
    if (withResources) {
      for (const spec of resourceToolSpecs(server)) {
        next.push({
          spec,
          remoteName: undefined,
          definition: { name: spec.name, inputSchema: spec.inputSchema },
          hash: '',
        });
      }
    }
    for (const entry of next) {
      if (entry.spec.meta?.definitionChanged === true)
        emit({ type: 'definition-changed', server, tool: entry.spec.name });
    }
    const before = stableStringify(this.specs);
    this.entries = next;
    this.byName = new Map(next.map((entry) => [entry.spec.name, entry]));
    this.specs = next.map((entry) => entry.spec);
    this.identity = serverIdentity;
    return before !== stableStringify(this.specs);
  }

  private listAll(session: McpSession, signal?: AbortSignal): Promise<McpToolDefinition[]> {
    const { server, requestTimeoutMs, emit } = this.options;
    return listAllTools(session, { server, requestTimeoutMs, emit, ...(signal ? { signal } : {}) });
  }

  /**
   * Lists the tools of `session`. `renew`: on HTTP 404 (the server forgot the session),
   * initialize again once and list on the new session; false for a session just opened (a
   * restart or a re-initialization), where a 404 means a new session would be refused too, and
   * renewing it would re-list it, and so on without end.
   */
  private async refresh(session: McpSession, signal?: AbortSignal, renew = true): Promise<boolean> {
    let definitions: McpToolDefinition[];
    let current = session;
    try {
      definitions = current.identity.hasTools ? await this.listAll(current, signal) : [];
    } catch (error) {
      if (!renew || !isSessionExpired(error)) throw error;
      // The server forgot our session (restarted): initialize again once and retry the listing.
      current = await this.options.connection.reconnect(signal);
      definitions = current.identity.hasTools ? await this.listAll(current, signal) : [];
    }
    const changed = this.apply(definitions, current.identity);
    this.listed = true;
    // Later listings are compared with the first one (or with a lazy server's cache).
    if (!this.knownHashes) {
      this.knownHashes = new Map(
        this.entries.filter((e) => e.remoteName).map((e) => [e.definition.name, e.hash]),
      );
    }
    await this.writeCache(definitions, current.identity);
    if (changed) {
      this.options.emit({ type: 'tools-changed', server: this.options.server, count: this.specs.length });
      for (const listener of this.listeners) listener();
    }
    return changed;
  }

  private async writeCache(definitions: McpToolDefinition[], identity: McpServerIdentity): Promise<void> {
    const { cachePath, server } = this.options;
    if (!cachePath) return;
    const hashes = new Map<string, string>();
    for (const entry of this.entries) {
      if (entry.remoteName !== undefined && !hashes.has(entry.remoteName))
        hashes.set(entry.remoteName, entry.hash);
    }
    const list: CachedToolList = {
      version: 1,
      server,
      savedAt: Date.now(),
      identity,
      // by remote name: a find per definition was quadratic (30 000 tools took 6 s more)
      tools: definitions.map((definition) => ({ definition, hash: hashes.get(definition.name) ?? '' })),
    };
    await writeToolCache(cachePath, list).catch(() => {});
  }

  private refreshInBackground(session: McpSession, renew: boolean): void {
    if (this.refreshing) {
      // a session just opened is not renewed, whichever asked first
      this.refreshAgain = { session, renew: renew && (this.refreshAgain?.renew ?? true) };
      return;
    }
    this.refreshing = true;
    const { server, requestTimeoutMs, emit, connection } = this.options;
    void this.refresh(session, undefined, renew)
      .catch((error: unknown) => {
        const failure = listingError(error, { server, timeoutMs: requestTimeoutMs });
        emit({ type: 'protocol-error', server, message: failure.message });
        // a session just opened and refused (404) at once is not renewed: it is lost, and the
        // restart policy takes over (backoff, then failed), not one re-initialization after another
        if (!renew && isSessionExpired(error)) connection.lost(session, failure.message);
      })
      .finally(() => {
        this.refreshing = false;
        const again = this.refreshAgain;
        this.refreshAgain = undefined;
        if (again && !this.closed && connection.session === again.session)
          this.refreshInBackground(again.session, again.renew);
      });
  }
}
