import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '@toolplane/core';
import { MCP_DEFAULTS } from '../config/types.js';
import { MAX_PAGES, tooManyPages } from '../tools/cursor.js';
import { boundedFetch } from '../transport/bounded-fetch.js';
import type { McpCallOutcome, McpRequestOptions, McpSession, SessionOpenOptions } from './session.js';
import { maxTotalTimeoutError, requestSignal } from './request-signal.js';
import { remoteHandle } from './sdk-session.js';
import type { TransportHandle } from './transport-handle.js';
import { connectWithin } from './sdk-connect.js';
import { takeErrorOfBoth } from './both-outcomes.js';
import { guardCursors } from './cursor-guard.js';
import { guardDelivery } from './delivery-guard.js';
import { clipErrorMessage } from './error-relay.js';
import { LateAnswers } from './late-answers.js';
import { OutputChecks } from './output-checks.js';
import { LOOSE_TOOLS_PAGE, UNPARSED, sdkRequests } from './sdk-requests.js';
import { callOutcomeOf, identityOf, malformedResult, toCallOutcome } from './sdk-results.js';
import { SessionEvents } from './session-events.js';
import { v2FeatureClient } from './feature-clients.js';

const CLIENT_INFO = { name: 'toolplane', version: '0.1.0' } as const;

/**
 * Errors of the v2 client in the shape the provider maps (SDK 1.x `McpError` codes). Its output
 * schema checks throw `ProtocolError`s (InvalidRequest / InvalidParams, the 1.x texts), which
 * become `McpError`s like any protocol error; `InvalidResult` is a result that does not parse
 * at all, reported as the other clients report one (a plain failure, `EXECUTION_FAILED`).
 */
function normalize(error: unknown): unknown {
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout)
      return new McpError(ErrorCode.RequestTimeout, error.message);
    if (error.code === SdkErrorCode.ConnectionClosed)
      return new McpError(ErrorCode.ConnectionClosed, error.message);
    // the client walks a listing's pages itself (a call without a cursor): the provider's bound
    if (error.code === SdkErrorCode.ListPaginationExceeded) {
      const method = (error.data as { method?: unknown } | undefined)?.method;
      return new Error(tooManyPages(typeof method === 'string' ? method : 'the list'), { cause: error });
    }
    if (error.code === SdkErrorCode.InvalidResult)
      return new Error(`the server sent a malformed result: ${error.message}`, { cause: error });
    return error;
  }
  if (error instanceof ProtocolError) return new McpError(error.code, error.message, error.data);
  return error;
}

/**
 * Runs one v2 client request with the options of the provider's request (`maxTotalTimeoutMs`
 * through the request's own signal, see {@link requestSignal}).
 */
async function run<T>(
  options: McpRequestOptions,
  call: (sdk: Record<string, unknown>) => Promise<T>,
): Promise<T> {
  const own = requestSignal(options);
  const sdk: Record<string, unknown> = {
    timeout: options.timeoutMs,
    resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? true,
    ...(own.signal ? { signal: own.signal } : {}),
    ...(options.onProgress ? { onprogress: options.onProgress } : {}),
  };
  try {
    return await call(sdk);
  } catch (error) {
    // the client wraps an abort reason in its own error: say which cap it was
    if (own.totalExceeded()) throw maxTotalTimeoutError(options.maxTotalTimeoutMs as number);
    throw normalize(error);
  } finally {
    own.stop();
  }
}

/**
 * The v2 client's list and read requests, each asked of the server. On a 2026-07-28 session
 * the client serves a `tools/list` or `resources/read` result the server marked fresh (`ttlMs`)
 * from its cache, so `refreshTools()` and `read_resource` answered from it for as long as the
 * server said, unlike every other client and revision. The tool listing is still written to
 * its cache (`refresh`), from which it mirrors arguments into headers (SEP-2243); the resource
 * results are not (`bypass`: one entry per URI read, held for the session).
 */
function askingServer(client: Client) {
  return {
    listTools: (params: { cursor?: string }, sdk: Record<string, unknown>) =>
      client.listTools(params, { ...sdk, cacheMode: 'refresh' }),
    listResources: (params: { cursor?: string }, sdk: Record<string, unknown>) =>
      client.listResources(params, { ...sdk, cacheMode: 'bypass' }),
    readResource: (params: { uri: string }, sdk: Record<string, unknown>) =>
      client.readResource(params, { ...sdk, cacheMode: 'bypass' }),
    ping: (sdk: Record<string, unknown>) => client.ping(sdk),
  };
}

/**
 * Connects with the split v2 client (`@modelcontextprotocol/client`) over any transport (its
 * transport interface is the one the 1.x SDK and our own transports implement). It negotiates
 * the version: the stateless 2026-07-28 revision with servers that speak it, an earlier one
 * otherwise. Selected per server with `client: 'v2'`.
 */
export async function openV2Session(
  handle: TransportHandle,
  options: SessionOpenOptions,
): Promise<McpSession> {
  const features = options.features;
  const events = new SessionEvents();
  const { errors } = events;
  // On a 2026-07-28 connection the client opens a subscriptions/listen stream for this; on an
  // older one it follows notifications/tools/list_changed. The provider re-lists itself.
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: 'auto' },
    capabilities: (features?.capabilities ?? {}) as never,
    // it walks every page of a listing asked for without a cursor: the provider's bound, not 64
    listMaxPages: MAX_PAGES,
    listChanged: {
      tools: {
        autoRefresh: false,
        debounceMs: 0,
        onChanged: () => events.toolsChanged(),
      },
    },
  });
  const featureClient = v2FeatureClient(client as never);
  features?.install(featureClient, { protocolVersion: () => client.getNegotiatedProtocolVersion() });
  let detach: (() => void) | undefined;
  let lastError = '';
  const diagnostics = (): string => handle.diagnostics() || lastError;
  const report = (error: Error): void => {
    lastError = clipErrorMessage(errorMessage(error));
    errors.emit(lastError);
  };
  // The client's server/discover probe runs before the client takes the transport's errors, and
  // passes them only to a handler set before it: a stdio server's stdout that is not JSON-RPC,
  // printed while it starts, was lost. Reported here from the start; the client's own handler
  // then hears the same error again (it calls this one first) and skips it.
  let fromTransport: Error | undefined;
  if (handle.kind === 'stdio') {
    handle.transport.onerror = (error: Error) => {
      fromTransport = error;
      report(error);
    };
  }
  client.onerror = (error: Error) => {
    if (error !== fromTransport) report(error);
  };
  client.onclose = () => {
    detach?.();
    const detail = diagnostics();
    events.reportClose(detail ? `connection closed: ${detail}` : 'connection closed');
  };
  const following = new LateAnswers().follow(handle.transport);
  await connectWithin(handle, options, {
    connect: () =>
      client.connect(
        handle.transport as never,
        { timeout: options.timeoutMs, signal: options.signal } as never,
      ),
    closeClient: () => {
      events.closedByUs = true;
      return client.close();
    },
    errors,
    normalize,
    watchNullIds: true,
  });
  following.afterConnect();
  takeErrorOfBoth(handle.transport, (message) => errors.emit(message));
  guardCursors(handle.transport);
  guardDelivery(handle.transport, (message) => errors.emit(message));
  detach = features?.attach(featureClient, handle.transport as never);
  const outputs = new OutputChecks();
  const identity = identityOf(client, client.getNegotiatedProtocolVersion());
  // On a 2026-07-28 session the client's own listing and calls are kept: it mirrors arguments
  // into headers (SEP-2243) from the tool list it cached, which only its own listing writes.
  const modern = (): boolean => client.getProtocolEra() === 'modern';
  return {
    identity,
    transport: handle.kind,
    ...(handle.pid === undefined ? {} : { pid: handle.pid }),
    ...sdkRequests(
      askingServer(client),
      run,
      (tools, first) => outputs.learn(tools, first),
      (params, sdk) => client.request({ method: 'tools/list', params }, LOOSE_TOOLS_PAGE, sdk),
      () => !modern(),
    ),
    async callTool(name, args, callOptions): Promise<McpCallOutcome> {
      if (modern()) {
        const result = await run(callOptions, (sdk) => client.callTool({ name, arguments: args }, sdk));
        // checked here for every listed page, whatever the client keeps
        return outputs.checked(name, toCallOutcome(result));
      }
      // the result unparsed and checked here, as on the other paths (see callOutcomeOf)
      const result = await run(callOptions, (sdk) =>
        client.request({ method: 'tools/call', params: { name, arguments: args } }, UNPARSED, sdk),
      );
      const outcome = callOutcomeOf(result);
      if (typeof outcome === 'string') throw malformedResult(outcome);
      return outputs.checked(name, outcome);
    },
    ...events.members(client, handle.transport, () => detach?.()),
    diagnostics,
  };
}

/** The v2 client over streamable HTTP (the transport of the 2026-07-28 revision). */
export function openV2HttpSession(
  url: URL,
  headers: Record<string, string>,
  options: SessionOpenOptions,
): Promise<McpSession> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    fetch: boundedFetch(MCP_DEFAULTS.maxMessageBytes),
  });
  return openV2Session(remoteHandle(transport as never, 'http'), options);
}
