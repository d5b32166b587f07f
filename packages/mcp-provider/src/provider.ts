import {
  PROVIDER_SPEC_VERSION,
  type ToolContext,
  ToolError,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  fail,
  formatIssues,
  ok,
  stableStringify,
} from '@toolplane/core';
import { serverConfigProblems, serverNameProblem } from './config/load.js';
import { shownServerName } from './config/problems.js';
import { MCP_DEFAULTS, type McpServerConfig, isStdioConfig } from './config/types.js';
import type { RestartPolicy } from './lifecycle/backoff.js';
import type { McpEventListener, McpProviderEvent } from './lifecycle/events.js';
import { type ConnectionState, ServerConnection } from './lifecycle/server-connection.js';
import type { McpSharedRegistry, SharedLease } from './lifecycle/shared-registry.js';
import {
  type CachedToolList,
  defaultToolCacheDirectory,
  readToolCache,
  toolCachePath,
  writeToolCache,
} from './lifecycle/tool-cache.js';
import { resultOf, secretValuesOf } from './provider-helpers.js';
import { checkProviderOptions } from './provider-options.js';
import type {
  McpServerIdentity,
  McpSession,
  McpSessionFactory,
  McpToolDefinition,
} from './session/session.js';
import { openRemoteSession } from './transport/remote.js';
import { callFailure, isSessionExpired, listingError } from './tools/call-errors.js';
import { type CatalogEntry, buildCatalog, compiledSchemaOf } from './tools/catalog.js';
import { toContentBlocks } from './tools/content.js';
import { listAllTools } from './tools/list-all.js';
import { RESOURCE_TOOL_NAMES, resourceToolSpecs } from './tools/resource-tools.js';

/** Options of {@link createMcpProvider}. */
export interface McpProviderOptions {
  /** Registry for `shared: true` servers; without one every provider has its own process. */
  readonly registry?: McpSharedRegistry;
  /** Receives lifecycle, schema and protocol events. */
  readonly onEvent?: McpEventListener;
  /** Directory of the process ledger (stdio). Default `<tmp>/toolplane-mcp-<uid>`. */
  readonly runDirectory?: string;
  /** Directory of lazy servers' tool caches. Default `~/.cache/toolplane/mcp-tools`. */
  readonly toolCacheDirectory?: string;
  readonly restartPolicy?: RestartPolicy;
  /** Time between SIGTERM and SIGKILL when stopping a stdio server. Default 1000 ms. */
  readonly killGraceMs?: number;
  /** Replaces how sessions are opened (another MCP client, tests of the lifecycle). */
  readonly sessionFactory?: McpSessionFactory;
}

/** A snapshot of a provider's server. */
export interface McpProviderStatus {
  readonly server: string;
  readonly state: ConnectionState;
  readonly lastError: string;
  readonly transport?: string;
  readonly pid?: number;
  readonly tools: number;
  readonly identity?: McpServerIdentity;
}

/** A {@link ToolProvider} over one MCP server. */
export interface McpProvider extends ToolProvider {
  readonly server: string;
  status(): McpProviderStatus;
  /** Lists the server's tools again (all pages) and returns the new local specs. */
  refreshTools(signal?: AbortSignal): Promise<readonly ToolSpec[]>;
  /**
   * Sends an MCP `ping` (starting the server if it is not running) and resolves with the round
   * trip in milliseconds; rejects when the server does not answer within `timeoutMs`.
   */
  ping(options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<number>;
}

function defaultSessionFactory(
  server: string,
  config: McpServerConfig,
  options: McpProviderOptions,
): McpSessionFactory {
  if (isStdioConfig(config)) {
    return async (open) => {
      // Loaded on demand so the root entry never pulls in child_process.
      const { openStdioSession } = await import('./stdio/connect.js');
      return openStdioSession(server, config, {
        ...open,
        ...(options.runDirectory === undefined ? {} : { runDirectory: options.runDirectory }),
        ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      });
    };
  }
  return (open) => openRemoteSession(server, config, open);
}

/**
 * A tool provider for one MCP server (stdio, streamable HTTP, SSE or WebSocket). It starts the
 * server (or lists a lazy server's cached tools), follows every `tools/list` page, validates
 * arguments against each tool's input schema, bounds every request by an explicit timeout that
 * progress extends, restarts a crashed server with backoff and fails calls in flight at once
 * with `PROVIDER_UNAVAILABLE`, and kills the whole process tree of a stdio server on close.
 *
 * @example
 * const provider = createMcpProvider('everything', {
 *   type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'],
 * });
 * await provider.start?.(AbortSignal.timeout(60_000));
 * const result = await provider.execute('echo', { message: 'hi' }, createToolContext());
 * await provider.close?.();
 */
export function createMcpProvider(
  name: string,
  config: McpServerConfig,
  options: McpProviderOptions = {},
): McpProvider {
  const nameProblem = serverNameProblem(name);
  if (nameProblem !== undefined) {
    const shown = typeof name === 'string' ? `MCP server ${shownServerName(name)} ` : 'MCP server ';
    throw new ToolError('CONFIG_INVALID', `${shown}${nameProblem}`, {
      details: { ...(typeof name === 'string' ? { server: name } : {}), field: 'name' },
    });
  }
  checkProviderOptions(name, options);
  const configProblems = serverConfigProblems(name, config);
  if (configProblems.length > 0) {
    throw new ToolError('CONFIG_INVALID', configProblems.map((problem) => problem.message).join('; '), {
      details: { server: name, ...(configProblems[0]?.field ? { field: configProblems[0].field } : {}) },
    });
  }
  const emit = (event: McpProviderEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // listeners must not break the provider
    }
  };
  const connectionOptions = {
    server: name,
    config,
    openSession: options.sessionFactory ?? defaultSessionFactory(name, config, options),
    onEvent: emit,
    ...(options.restartPolicy ? { restartPolicy: options.restartPolicy } : {}),
  };
  let lease: SharedLease | undefined;
  let connection: ServerConnection;
  if (config.shared && options.registry) {
    lease = options.registry.acquire(connectionOptions);
    connection = lease.connection;
  } else {
    connection = new ServerConnection(connectionOptions);
  }

  const requestTimeoutMs = config.requestTimeoutMs ?? MCP_DEFAULTS.requestTimeoutMs;
  const lazy = config.lazy === true;
  const cachePath = lazy
    ? toolCachePath(options.toolCacheDirectory ?? defaultToolCacheDirectory(), name, config)
    : undefined;
  let entries: CatalogEntry[] = [];
  let byName = new Map<string, CatalogEntry>();
  let specs: readonly ToolSpec[] = [];
  let identity: McpServerIdentity | undefined;
  let knownHashes: Map<string, string> | undefined;
  let listed = false;
  let closed = false;
  let inFlight = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  const listeners = new Set<() => void>();
  const reportedSchemas = new Set<string>();

  function apply(definitions: readonly McpToolDefinition[], serverIdentity: McpServerIdentity): boolean {
    const withResources = serverIdentity.hasResources && config.resources !== false;
    const reserved = withResources ? [RESOURCE_TOOL_NAMES.list, RESOURCE_TOOL_NAMES.read] : [];
    const next = buildCatalog(definitions, {
      server: name,
      config,
      reserved,
      ...(knownHashes ? { knownHashes } : {}),
    });
    if (withResources) {
      for (const spec of resourceToolSpecs(name)) {
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
        emit({ type: 'definition-changed', server: name, tool: entry.spec.name });
    }
    const before = stableStringify(specs);
    entries = next;
    byName = new Map(next.map((entry) => [entry.spec.name, entry]));
    specs = next.map((entry) => entry.spec);
    identity = serverIdentity;
    return before !== stableStringify(specs);
  }

  const listAll = (session: McpSession, signal?: AbortSignal): Promise<McpToolDefinition[]> =>
    listAllTools(session, { server: name, requestTimeoutMs, emit, ...(signal ? { signal } : {}) });

  /**
   * Lists the tools of `session`. `renew`: on HTTP 404 (the server forgot the session),
   * initialize again once and list on the new session; false for a session just opened (a
   * restart or a re-initialization), where a 404 means a new session would be refused too, and
   * renewing it would re-list it, and so on without end.
   */
  async function refresh(session: McpSession, signal?: AbortSignal, renew = true): Promise<boolean> {
    let definitions: McpToolDefinition[];
    let current = session;
    try {
      definitions = current.identity.hasTools ? await listAll(current, signal) : [];
    } catch (error) {
      if (!renew || !isSessionExpired(error)) throw error;
      // The server forgot our session (restarted): initialize again once and retry the listing.
      current = await connection.reconnect(signal);
      definitions = current.identity.hasTools ? await listAll(current, signal) : [];
    }
    const changed = apply(definitions, current.identity);
    listed = true;
    // Later listings are compared with the first one (or with a lazy server's cache).
    if (!knownHashes)
      knownHashes = new Map(entries.filter((e) => e.remoteName).map((e) => [e.definition.name, e.hash]));
    if (cachePath) {
      const list: CachedToolList = {
        version: 1,
        server: name,
        savedAt: Date.now(),
        identity: current.identity,
        tools: definitions.map((definition) => {
          const entry = entries.find((candidate) => candidate.remoteName === definition.name);
          return { definition, hash: entry?.hash ?? '' };
        }),
      };
      await writeToolCache(cachePath, list).catch(() => {});
    }
    if (changed) {
      emit({ type: 'tools-changed', server: name, count: specs.length });
      for (const listener of listeners) listener();
    }
    return changed;
  }

  /** {@link refresh} for callers: what it throws is a `ToolError` with a stable code. */
  async function refreshOrThrow(session: McpSession, signal?: AbortSignal): Promise<void> {
    try {
      await refresh(session, signal);
    } catch (error) {
      throw listingError(error, {
        server: name,
        timeoutMs: requestTimeoutMs,
        signal,
        ...(connection.lastError ? { lostReason: connection.lastError } : {}),
      });
    }
  }

  // A storm of list_changed notifications makes one listing at a time, plus one after it for
  // whatever changed meanwhile, not one listing per notification.
  let refreshing = false;
  let refreshAgain: { session: McpSession; renew: boolean } | undefined;
  const refreshInBackground = (session: McpSession, renew: boolean): void => {
    if (refreshing) {
      // a session just opened is not renewed, whichever asked first
      refreshAgain = { session, renew: renew && (refreshAgain?.renew ?? true) };
      return;
    }
    refreshing = true;
    void refresh(session, undefined, renew)
      .catch((error: unknown) => {
        const failure = listingError(error, { server: name, timeoutMs: requestTimeoutMs });
        emit({ type: 'protocol-error', server: name, message: failure.message });
      })
      .finally(() => {
        refreshing = false;
        const again = refreshAgain;
        refreshAgain = undefined;
        if (again && !closed && connection.session === again.session)
          refreshInBackground(again.session, again.renew);
      });
  };
  const unsubscribeOpened = connection.onSessionOpened((session) => {
    identity = session.identity;
    // The first listing is done by start(); later sessions (restarts, lazy starts) refresh.
    if (listed && !closed) refreshInBackground(session, false);
  });
  const unsubscribeChanged = connection.onToolsChanged(() => {
    const session = connection.session;
    if (session && !closed) refreshInBackground(session, true);
  });

  function scheduleIdleStop(): void {
    if (!lazy || config.shared || closed || inFlight > 0) return;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (inFlight === 0 && !closed) void connection.stop('idle');
    }, config.idleTimeoutMs ?? MCP_DEFAULTS.idleTimeoutMs);
    idleTimer.unref?.();
  }

  async function start(signal?: AbortSignal): Promise<void> {
    if (closed) throw new ToolError('PROVIDER_UNAVAILABLE', `MCP server "${name}": the provider was closed`);
    if (lazy && cachePath && !listed) {
      const cached = await readToolCache(cachePath);
      if (cached) {
        knownHashes = new Map(cached.tools.map((tool) => [tool.definition.name, tool.hash]));
        apply(
          cached.tools.map((tool) => tool.definition),
          cached.identity,
        );
        listed = true;
        return;
      }
    }
    const session = await connection.start(signal);
    if (!listed) await refreshOrThrow(session, signal);
    scheduleIdleStop();
  }

  async function callResourceTool(
    session: McpSession,
    which: 'list' | 'read',
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolResult> {
    const requestOptions = { timeoutMs: requestTimeoutMs, abort: ctx };
    if (which === 'list') {
      const page = await session.listResourcesPage(
        typeof args.cursor === 'string' ? args.cursor : undefined,
        requestOptions,
      );
      const structured = {
        resources: page.items,
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
      return ok(JSON.stringify(structured), structured);
    }
    const contents = await session.readResource(String(args.uri), requestOptions);
    return ok(toContentBlocks(contents.map((resource) => ({ type: 'resource', resource }))));
  }

  async function execute(
    localName: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolResult> {
    const entry = byName.get(localName);
    if (!entry && !listed && !closed) {
      // "has no tool" would be a guess: the tools are not known until the server lists them
      const why = connection.lastError ? ` (its start failed: ${connection.lastError})` : '';
      return fail(
        'PROVIDER_UNAVAILABLE',
        `MCP server "${name}" has not listed its tools${why}: start it (provider.start) or call refreshTools, then call again`,
      );
    }
    if (!entry) {
      const known = specs.slice(0, 20).map((spec) => spec.name);
      return fail(
        'TOOL_NOT_FOUND',
        `MCP server "${name}" has no tool "${localName.length > 100 ? `${localName.slice(0, 100)}...` : localName}"${known.length ? `; it has: ${known.join(', ')}` : ''}`,
      );
    }
    const compiled = compiledSchemaOf(entry, (message) => {
      if (reportedSchemas.has(entry.spec.name)) return;
      reportedSchemas.add(entry.spec.name);
      emit({ type: 'schema-invalid', server: name, tool: entry.spec.name, message });
    });
    if (compiled) {
      const outcome = compiled.validate(args);
      if (!outcome.valid) {
        return fail(
          'INVALID_ARGUMENTS',
          `MCP server "${name}" tool "${localName}": ${formatIssues(outcome.issues)}; fix the arguments to match the tool's input schema`,
          { details: { issues: outcome.issues } },
        );
      }
    }
    if (closed) return fail('PROVIDER_UNAVAILABLE', `MCP server "${name}": the provider was closed`);
    inFlight++;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    const remote = entry.remoteName ?? localName;
    try {
      // a running server needs no signal to wait on: do not make the context create one
      const session = connection.session ?? (await connection.start(ctx.signal));
      const resourceTool = entry.spec.meta?.resourceTool;
      if (resourceTool === 'list' || resourceTool === 'read')
        return await callResourceTool(session, resourceTool, args, ctx);
      const outcome = await session.callTool(remote, args, {
        abort: ctx,
        timeoutMs: requestTimeoutMs,
        resetTimeoutOnProgress: true,
        ...(config.maxTotalTimeoutMs === undefined ? {} : { maxTotalTimeoutMs: config.maxTotalTimeoutMs }),
        onProgress: (progress) =>
          ctx.progress({
            progress: progress.progress,
            ...(progress.total === undefined ? {} : { total: progress.total }),
            ...(progress.message === undefined ? {} : { message: progress.message }),
          }),
      });
      return resultOf(name, remote, outcome);
    } catch (error) {
      // Never retry a tool call (it may not be idempotent); re-initialize for the next one.
      if (isSessionExpired(error)) void connection.reconnect().catch(() => {});
      return callFailure(error, {
        server: name,
        tool: remote,
        timeoutMs: requestTimeoutMs,
        abort: ctx,
        lostReason: () => connection.lastError,
      });
    } finally {
      inFlight--;
      scheduleIdleStop();
    }
  }

  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'mcp',
    namespace: name,
    prefixNames: true,
    server: name,
    start: (signal) => start(signal),
    listTools: () => specs,
    execute,
    instructions: () => identity?.instructions,
    secretValues: () => secretValuesOf(config),
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    status() {
      const session = connection.session;
      return {
        server: name,
        state: connection.state,
        lastError: connection.lastError,
        tools: specs.length,
        ...(session ? { transport: session.transport } : {}),
        ...(session?.pid === undefined ? {} : { pid: session.pid }),
        ...(identity ? { identity } : {}),
      };
    },
    async refreshTools(signal) {
      const session = await connection.start(signal);
      await refreshOrThrow(session, signal);
      return specs;
    },
    async ping(pingOptions = {}) {
      const session = await connection.start(pingOptions.signal);
      const started = performance.now();
      await session.ping({
        timeoutMs: pingOptions.timeoutMs ?? 10_000,
        ...(pingOptions.signal ? { abort: { signal: pingOptions.signal } } : {}),
      });
      return performance.now() - started;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      listeners.clear();
      // A shared connection outlives this provider: stop listening to it.
      unsubscribeOpened();
      unsubscribeChanged();
      if (lease) await lease.release();
      else await connection.close();
    },
  };
}
