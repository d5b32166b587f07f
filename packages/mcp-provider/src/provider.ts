import { PROVIDER_SPEC_VERSION, type ToolContext, ToolError, type ToolResult, fail } from '@toolplane/core';
import { createClientFeatures } from './client-features/client-features.js';
import { MCP_DEFAULTS, type McpServerInput, withTransportType } from './config/types.js';
import { closeScope } from './lifecycle/close-scope.js';
import type { McpProviderEvent } from './lifecycle/events.js';
import { ServerConnection } from './lifecycle/server-connection.js';
import type { SharedLease } from './lifecycle/shared-registry.js';
import { sharedSettingsOf } from './lifecycle/shared-settings.js';
import { defaultToolCacheDirectory, toolCachePath } from './lifecycle/tool-cache.js';
import { checkProviderArguments } from './provider-arguments.js';
import { argumentsFailure, resultOf, secretValuesOf } from './provider-helpers.js';
import { ProviderTools } from './provider-tools.js';
import type { McpProvider, McpProviderOptions } from './provider-types.js';
import { defaultSessionFactory } from './session/default-factory.js';
import type { McpSession } from './session/session.js';
import { callFailure, isSessionExpired } from './tools/call-errors.js';
import { callResourceTool } from './tools/resource-tools.js';
import { providerUpstream } from './passthrough/provider-upstream.js';

/**
 * A tool provider for one MCP server (stdio, streamable HTTP, SSE or WebSocket). It starts the
 * server (or lists a lazy server's cached tools), follows every `tools/list` page, validates
 * arguments against each tool's input schema, bounds every request by an explicit timeout that
 * progress extends, restarts a crashed server with backoff and fails calls in flight at once
 * with `PROVIDER_UNAVAILABLE`, and kills the whole process tree of a stdio server on close.
 *
 * @example
 * const provider = createMcpProvider('everything', {
 *   command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], // type: 'stdio' implied
 * });
 * await provider.start?.(AbortSignal.timeout(60_000));
 * const result = await provider.execute('echo', { message: 'hi' }, createToolContext());
 * await provider.close?.();
 */
export function createMcpProvider(
  name: string,
  input: McpServerInput,
  options: McpProviderOptions = {},
): McpProvider {
  const config = withTransportType(input);
  checkProviderArguments(name, config, options);
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
    openSession:
      options.sessionFactory ??
      defaultSessionFactory(name, config, options, createClientFeatures(name, options, emit)),
    // the caller's own listener (the connection catches its failures): a shared server's
    // providers given one listener make it hear each event once
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.restartPolicy ? { restartPolicy: options.restartPolicy } : {}),
  };
  let lease: SharedLease | undefined;
  let connection: ServerConnection;
  if (config.shared && options.registry) {
    lease = options.registry.acquire(connectionOptions, sharedSettingsOf(config, options));
    connection = lease.connection;
  } else {
    connection = new ServerConnection(connectionOptions);
  }

  const requestTimeoutMs = config.requestTimeoutMs ?? MCP_DEFAULTS.requestTimeoutMs;
  const lazy = config.lazy === true;
  const cachePath = lazy
    ? toolCachePath(options.toolCacheDirectory ?? defaultToolCacheDirectory(), name, config)
    : undefined;
  const tools = new ProviderTools({
    server: name,
    config,
    connection,
    emit,
    requestTimeoutMs,
    ...(cachePath ? { cachePath } : {}),
  });
  let closed = false;
  let closing: Promise<void> | undefined;
  const closedError = (): ToolError =>
    new ToolError('PROVIDER_UNAVAILABLE', `MCP server "${name}": the provider was closed`, {
      details: { server: name },
    });
  // a shared server goes on for its other providers when this one closes (see closeScope)
  const scope = closeScope(lease !== undefined);
  const { untilClosed, callAbort } = scope;
  let inFlight = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  const reportedSchemas = new Set<string>();

  function scheduleIdleStop(): void {
    if (!lazy || config.shared || closed || inFlight > 0) return;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (inFlight === 0 && !closed) void connection.stop('idle');
    }, config.idleTimeoutMs ?? MCP_DEFAULTS.idleTimeoutMs);
    idleTimer.unref?.();
  }

  /** Runs `work` with the caller's signal, ended by this provider's close too (a shared server). */
  async function whileOpen<T>(
    signal: AbortSignal | undefined,
    work: (signal?: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (closed) throw closedError();
    try {
      return await untilClosed(signal, work);
    } catch (error) {
      throw closed ? closedError() : error;
    }
  }

  async function start(signal?: AbortSignal): Promise<void> {
    if (closed) throw closedError();
    // a lazy server lists its tools from its cache and starts on the first call
    if (!tools.listed && (await tools.loadCache())) return;
    await whileOpen(signal, async (until) => {
      const session = await connection.start(until);
      if (!tools.listed) await tools.refreshOrThrow(session, until);
    });
    scheduleIdleStop();
  }

  async function execute(
    localName: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolResult> {
    const entry = tools.entry(localName);
    if (!entry && !tools.listed && !closed) {
      // "has no tool" would be a guess: the tools are not known until the server lists them
      const why = connection.lastError ? ` (its start failed: ${connection.lastError})` : '';
      return fail(
        'PROVIDER_UNAVAILABLE',
        `MCP server "${name}" has not listed its tools${why}: start it (provider.start) or call refreshTools, then call again`,
      );
    }
    if (!entry) {
      const known = tools.specs.slice(0, 20).map((spec) => spec.name);
      return fail(
        'TOOL_NOT_FOUND',
        `MCP server "${name}" has no tool "${localName.length > 100 ? `${localName.slice(0, 100)}...` : localName}"${known.length ? `; it has: ${known.join(', ')}` : ''}`,
      );
    }
    const refused = argumentsFailure(name, localName, entry, args, (message) => {
      if (reportedSchemas.has(entry.spec.name)) return;
      reportedSchemas.add(entry.spec.name);
      emit({ type: 'schema-invalid', server: name, tool: entry.spec.name, message });
    });
    if (refused) return refused;
    if (closed) return fail('PROVIDER_UNAVAILABLE', `MCP server "${name}": the provider was closed`);
    inFlight++;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    const remote = entry.remoteName ?? localName;
    const abort = callAbort(ctx);
    const resourceTool = entry.spec.meta?.resourceTool;
    const send = async (session: McpSession): Promise<ToolResult> => {
      if (resourceTool === 'list' || resourceTool === 'read')
        return callResourceTool(name, session, resourceTool, args, {
          timeoutMs: requestTimeoutMs,
          abort,
          // the cap holds for every request a call makes, a resource's too
          ...(config.maxTotalTimeoutMs === undefined ? {} : { maxTotalTimeoutMs: config.maxTotalTimeoutMs }),
        });
      const outcome = await session.callTool(remote, args, {
        abort,
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
    };
    try {
      // a running server needs no signal to wait on: do not make the context create one
      const session =
        connection.session ?? (await untilClosed(ctx.signal, (until) => connection.start(until)));
      try {
        return await send(session);
      } catch (error) {
        if (!isSessionExpired(error)) throw error;
        // HTTP 404 for our session: the server ran nothing (it answers a request for a session
        // it does not know so, before running it), so the call is sent once more on a new
        // session, never twice. Another call's 404 may have renewed the session already.
        const current = connection.session;
        return await send(
          current && current !== session
            ? current
            : await untilClosed(ctx.signal, (until) => connection.reconnect(until)),
        );
      }
    } catch (error) {
      if (closed) return fail('PROVIDER_UNAVAILABLE', closedError().message);
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
    listTools: () => tools.specs,
    execute,
    instructions: () => tools.identity?.instructions,
    upstream: providerUpstream(name, connection, requestTimeoutMs),
    secretValues: () => [...secretValuesOf(config), ...(options.auth?.secretValues(name) ?? [])],
    onToolsChanged: (listener) => tools.onChanged(listener),
    status() {
      const session = connection.session;
      return {
        server: name,
        state: connection.state,
        lastError: connection.lastError,
        tools: tools.specs.length,
        ...(session ? { transport: session.transport } : {}),
        ...(session?.pid === undefined ? {} : { pid: session.pid }),
        ...(tools.identity ? { identity: tools.identity } : {}),
      };
    },
    refreshTools(signal) {
      return whileOpen(signal, async (until) => {
        const session = await connection.start(until);
        await tools.refreshOrThrow(session, until);
        return tools.specs;
      });
    },
    restart(signal) {
      return whileOpen(signal, async (until) => {
        const session = await connection.restart(until);
        await tools.refreshOrThrow(session, until);
        scheduleIdleStop();
        return tools.specs;
      });
    },
    ping(pingOptions = {}) {
      return whileOpen(pingOptions.signal, async (until) => {
        const session = await connection.start(until);
        const started = performance.now();
        await session.ping({
          timeoutMs: pingOptions.timeoutMs ?? 10_000,
          ...(until ? { abort: { signal: until } } : {}),
        });
        return performance.now() - started;
      });
    },
    close() {
      // a second close waits for the first: the server is gone once any of them resolves
      closing ??= (async () => {
        closed = true;
        if (idleTimer) clearTimeout(idleTimer);
        // a shared connection outlives this provider: stop listening to it, end what waits on it
        tools.close();
        scope.end(closedError());
        if (lease) await lease.release();
        else await connection.close();
      })();
      return closing;
    },
  };
}
