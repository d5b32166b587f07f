import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '@toolplane/core';
import { isSessionExpired } from '../tools/call-errors.js';
import { MESSAGE_TOO_LARGE } from '../transport/bounded-fetch.js';
import type { McpCallOutcome, McpRequestOptions, McpSession, SessionOpenOptions } from './session.js';
import { DirectCalls } from './direct-calls.js';
import { takeErrorOfBoth } from './both-outcomes.js';
import { guardCursors } from './cursor-guard.js';
import { guardDelivery } from './delivery-guard.js';
import { clipErrorMessage } from './error-relay.js';
import { LateAnswers } from './late-answers.js';
import { OutputChecks } from './output-checks.js';
import { maxTotalTimeoutError, requestSignal } from './request-signal.js';
import { connectWithin } from './sdk-connect.js';
import { LOOSE_TOOLS_PAGE, UNPARSED, sdkRequests } from './sdk-requests.js';
import { callOutcomeOf, identityOf, learnTaskTools, malformedResult, taskRequired } from './sdk-results.js';
import { SessionEvents } from './session-events.js';
import { v1FeatureClient } from './feature-clients.js';
import type { TransportHandle } from './transport-handle.js';
import { sdkPassthrough } from '../passthrough/sdk-passthrough.js';

/**
 * A handle for a remote transport: its last error is what the provider reports when the
 * connection fails (a remote server has no stderr).
 */
export function remoteHandle(transport: Transport, kind: string): TransportHandle {
  let last = '';
  let giveUp: (error: Error) => void = () => {};
  const fatal = new Promise<never>((_, reject) => {
    giveUp = reject;
  });
  fatal.catch(() => {}); // heard only by a start in progress
  transport.onerror = (error: Error) => {
    last = errorMessage(error);
    // the SDKs wrap it ("SSE stream disconnected: Error: a message from the server exceeds ...")
    if (last.includes(MESSAGE_TOO_LARGE)) giveUp(new Error(last));
  };
  return { transport, kind, diagnostics: () => last, fatal };
}

const CLIENT_INFO = { name: 'toolplane', version: '0.1.0' } as const;
/** How long a remote server gets to answer the ping sent after a transport error. */
const REMOTE_PROBE_TIMEOUT_MS = 5_000;

type SdkRequestOptions = {
  timeout: number;
  resetTimeoutOnProgress: boolean;
  signal?: AbortSignal;
  onprogress?: McpRequestOptions['onProgress'];
};

/**
 * Runs one SDK request with the options of the provider's request (`maxTotalTimeoutMs` through
 * the request's own signal, see {@link requestSignal}).
 */
async function request<T>(
  options: McpRequestOptions,
  run: (sdk: SdkRequestOptions) => Promise<T>,
): Promise<T> {
  const sdk: SdkRequestOptions = {
    timeout: options.timeoutMs,
    resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? true,
    ...(options.onProgress ? { onprogress: options.onProgress } : {}),
  };
  const own = requestSignal(options);
  if (!own.signal) return run(sdk);
  try {
    return await run({ ...sdk, signal: own.signal });
  } catch (error) {
    if (own.totalExceeded()) throw maxTotalTimeoutError(options.maxTotalTimeoutMs as number);
    throw error;
  } finally {
    own.stop();
  }
}

/**
 * Connects an SDK 1.x `Client` over a transport and wraps it as an {@link McpSession}.
 * Rejects (after closing the transport) when initialize fails or takes longer than `timeoutMs`.
 */
export async function openSdkSession(
  handle: TransportHandle,
  options: SessionOpenOptions,
): Promise<McpSession> {
  const features = options.features;
  const client = new Client(CLIENT_INFO, { capabilities: features?.capabilities ?? {} });
  const featureClient = v1FeatureClient(client);
  const events = new SessionEvents();
  const { errors } = events;
  let lastError = '';
  let connected = false;
  let probing = false;
  /**
   * A remote transport error (a response stream cut, a refused POST) does not close the SDK
   * client, and requests waiting on the cut stream would wait for their timeout. Ping at once:
   * when the server does not answer, treat the connection as lost so those requests fail now.
   */
  const probeAfterError = (): void => {
    if (!connected || probing || events.ended || handle.kind === 'stdio') return;
    probing = true;
    client
      .ping({ timeout: REMOTE_PROBE_TIMEOUT_MS })
      .then(
        () => {},
        (error: unknown) => {
          events.reportClose(`connection lost: ${lastError || errorMessage(error)}`);
          events.closedByUs = true;
          void client.close().catch(() => {});
        },
      )
      .finally(() => {
        probing = false;
      });
  };
  client.onerror = (error) => {
    lastError = clipErrorMessage(errorMessage(error));
    errors.emit(lastError);
    // HTTP 404, the session is gone: the request that got it tells its caller, who initializes
    // again (a probe's 404 closed this session, failing the calls still waiting on it, which the
    // server refused unrun and which are sent again on the new session)
    if (!isSessionExpired(error)) probeAfterError();
  };
  const outputs = new OutputChecks();
  // tools that require task-based execution, refused before sending as the SDK's callTool does
  // (the pages are read unparsed, so the SDK does not learn them)
  const taskTools = new Set<string>();
  const late = new LateAnswers();
  const following = late.follow(handle.transport);
  const direct = handle.direct
    ? new DirectCalls(handle.direct, outputs, late, (message) => errors.emit(message))
    : undefined;
  let detach: (() => void) | undefined;
  client.onclose = () => {
    detach?.();
    direct?.close();
    const detail = handle.diagnostics() || lastError;
    events.reportClose(detail ? `connection closed: ${detail}` : 'connection closed');
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.toolsChanged());
  const passthrough = sdkPassthrough(client);
  let protocolVersion: string | undefined;
  const setProtocolVersion = handle.transport.setProtocolVersion?.bind(handle.transport);
  handle.transport.setProtocolVersion = (version: string) => {
    protocolVersion = version;
    setProtocolVersion?.(version);
  };
  features?.install(featureClient, { protocolVersion: () => protocolVersion });
  await connectWithin(handle, options, {
    connect: () => client.connect(handle.transport, { timeout: options.timeoutMs, signal: options.signal }),
    closeClient: () => {
      events.closedByUs = true;
      return client.close();
    },
    errors,
  });
  connected = true;
  following.afterConnect();
  takeErrorOfBoth(handle.transport, (message) => errors.emit(message));
  guardCursors(handle.transport);
  guardDelivery(handle.transport, (message) => errors.emit(message));
  detach = features?.attach(featureClient, handle.transport as never);
  const identity = identityOf(client, protocolVersion);
  return {
    identity,
    transport: handle.kind,
    passthrough,
    ...(handle.pid === undefined ? {} : { pid: handle.pid }),
    ...sdkRequests(
      client,
      request,
      (tools, first) => {
        outputs.learn(tools, first);
        direct?.learnTools(tools, first);
        learnTaskTools(taskTools, tools, first);
      },
      (params, sdk) => client.request({ method: 'tools/list', params }, LOOSE_TOOLS_PAGE, sdk),
    ),
    async callTool(name, args, callOptions): Promise<McpCallOutcome> {
      if (taskTools.has(name)) throw taskRequired(name);
      if (direct?.handles(name)) return direct.callTool(name, args, callOptions);
      // the result unparsed and checked here, as on the direct path (see callOutcomeOf); output
      // schemas of every listed page are checked here too (the SDK kept its last page's only)
      const result = await request(callOptions, (sdk) =>
        client.request({ method: 'tools/call', params: { name, arguments: args } }, UNPARSED, sdk),
      );
      const outcome = callOutcomeOf(result);
      if (typeof outcome === 'string') throw malformedResult(outcome);
      return outputs.checked(name, outcome);
    },
    ...events.members(client, handle.transport, () => detach?.()),
    diagnostics() {
      return handle.diagnostics() || lastError;
    },
  };
}
