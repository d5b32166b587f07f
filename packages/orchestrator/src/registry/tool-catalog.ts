import {
  type Middleware,
  type RegisteredTool,
  type ToolProvider,
  type ToolSpec,
  type ToolView,
  ToolError,
} from '@toolplane/core';
import { checkProviderOptions, checkWarmupOptions } from '../check-options.js';
import type { EventHub } from '../observe/events.js';
import { filterTools, fullView } from './filter-tools.js';
import type { OrchestratorOptions } from '../options.js';
import { type ProviderEntry, type ProviderOptions, ToolRegistry } from './registry.js';
import { refreshProvider } from './registry-views.js';
import { tellToolsChanged } from './tools-changed.js';
import { type WarmupReport, warmupProviders } from './warmup.js';

/** What the catalog needs from the orchestrator. */
/** The least time between two re-lists of one provider (a server may announce changes without end). */
const REFRESH_GAP_MS = 250;

export interface CatalogDeps {
  readonly options: Pick<OrchestratorOptions, 'warmupConcurrency' | 'startTimeoutMs'>;
  readonly events: EventHub;
  /** The built-in middleware (their filters narrow a view's list first). */
  readonly builtins: readonly Middleware[];
  /** The app's middleware, as `use()` adds to it (told of every list change). */
  readonly middleware: readonly Middleware[];
  /** Whether the orchestrator is closed (no new providers, no more re-listing). */
  readonly closed: () => boolean;
}

/**
 * The providers and the tool list built from them: registration, starting them (`warmup()`, or
 * lazily before a call), re-listing a provider that says its list changed, and the list each
 * view sees.
 */
export class ToolCatalog {
  readonly registry = new ToolRegistry();
  private readonly deps: CatalogDeps;
  private pending = false;
  private warming: Promise<void> | undefined;
  private specsCache: readonly ToolSpec[] | undefined;
  private readonly refreshing = new Map<string, Promise<void>>();
  /** Providers that announced a change while being re-listed: re-listed once more after. */
  private readonly changedAgain = new Set<string>();
  /** When each provider was last re-listed, and the re-lists waiting for their turn. */
  private readonly listedAt = new Map<string, number>();
  private readonly refreshDue = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly stopWarmup = new AbortController();

  constructor(deps: CatalogDeps) {
    this.deps = deps;
  }

  /** Adds a provider; it starts on the next `warmup()` (or before the next call). */
  register(provider: ToolProvider, options: ProviderOptions): void {
    if (this.deps.closed())
      throw new ToolError('PROVIDER_UNAVAILABLE', 'the orchestrator is closed; create a new one');
    checkProviderOptions(String(provider?.namespace), options);
    const entry: ProviderEntry = { provider, options, state: 'pending', specs: [] };
    this.registry.add(entry);
    this.pending = true;
  }

  /** Starts every pending provider, `concurrency` at a time (after any warmup in progress). */
  warmup(options: { concurrency?: number; signal?: AbortSignal }): Promise<WarmupReport[]> {
    checkWarmupOptions(options);
    this.pending = false;
    const previous = this.warming;
    const run = (async () => {
      await previous;
      return this.startPending(options);
    })();
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.warming = settled;
    void settled.then(() => {
      if (this.warming === settled) this.warming = undefined;
    });
    return run;
  }

  /**
   * What a call waits for before it runs: the warmup of providers registered since the last one,
   * or the warmup in progress; undefined when there is nothing to wait for (no promise step).
   */
  whenReady(): Promise<unknown> | undefined {
    if (this.pending) return this.warmup({});
    return this.warming;
  }

  /** Public specs of every tool (narrowed by middleware `filterTools` when a view is given). */
  listTools(view: Partial<ToolView> | undefined): readonly ToolSpec[] {
    if (!view) {
      this.specsCache ??= Object.freeze(this.registry.all().map((route) => route.spec));
      return this.specsCache;
    }
    return this.listRegistered(view).map((tool) => tool.spec);
  }

  /** Registered tools with their provider (narrowed by middleware when a view is given). */
  listRegistered(view: Partial<ToolView> | undefined): readonly RegisteredTool[] {
    const tools: readonly RegisteredTool[] = this.registry.all();
    if (!view) return tools;
    return filterTools([...this.deps.builtins, ...this.deps.middleware], tools, fullView(view), (name) =>
      this.registry.has(name),
    );
  }

  /** Stops the starts in progress (when closing: a call waiting on them is not held). */
  stopStarts(): void {
    this.stopWarmup.abort(new ToolError('PROVIDER_UNAVAILABLE', 'the orchestrator is closing'));
    for (const timer of this.refreshDue.values()) clearTimeout(timer);
    this.refreshDue.clear();
  }

  private async startPending(options: {
    concurrency?: number;
    signal?: AbortSignal;
  }): Promise<WarmupReport[]> {
    const { options: settings, events } = this.deps;
    const pendingEntries = this.registry.entries.filter((entry) => entry.state === 'pending');
    const reports = await warmupProviders(pendingEntries, {
      concurrency: options.concurrency ?? settings.warmupConcurrency ?? 4,
      startTimeoutMs: settings.startTimeoutMs ?? 120_000,
      // close() stops the starts in progress, so a call waiting on them is not held
      signal: options.signal
        ? AbortSignal.any([options.signal, this.stopWarmup.signal])
        : this.stopWarmup.signal,
      onFailed: (provider, error) => events.emit('provider_failed', { provider, error }),
      onChanged: (entry) => this.scheduleRefresh(entry),
      onWarning: (provider, message) => events.emit('warning', { provider, message }),
    });
    this.rebuild();
    return reports;
  }

  private rebuild(): void {
    const { events, middleware } = this.deps;
    this.registry.rebuild();
    this.specsCache = undefined;
    const all = this.registry.all();
    tellToolsChanged(middleware, all, (message) => events.emit('warning', { message }));
    events.emit('tools_changed', { count: all.length });
  }

  private scheduleRefresh(entry: ProviderEntry): void {
    const namespace = entry.provider.namespace;
    if (this.deps.closed()) return;
    // the re-list running may have read the list before this change: one more follows it
    if (this.refreshing.has(namespace)) {
      this.changedAgain.add(namespace);
      return;
    }
    // one re-list is already due; a server announcing changes without end is re-listed at most
    // once per REFRESH_GAP_MS
    if (this.refreshDue.has(namespace)) return;
    const wait = (this.listedAt.get(namespace) ?? Number.NEGATIVE_INFINITY) + REFRESH_GAP_MS - Date.now();
    if (wait > 0) {
      const timer = setTimeout(() => {
        this.refreshDue.delete(namespace);
        this.scheduleRefresh(entry);
      }, wait);
      timer.unref?.();
      this.refreshDue.set(namespace, timer);
      return;
    }
    const run = refreshProvider(
      entry,
      (message) => this.deps.events.emit('warning', { provider: namespace, message }),
      this.deps.options.startTimeoutMs ?? 120_000,
    )
      .finally(() => {
        this.refreshing.delete(namespace);
        this.listedAt.set(namespace, Date.now());
      })
      .then((changed) => {
        if (this.deps.closed()) return;
        if (changed) this.rebuild();
        if (this.changedAgain.delete(namespace)) this.scheduleRefresh(entry);
      });
    this.refreshing.set(namespace, run);
  }
}
