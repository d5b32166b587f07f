import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '@toolplane/core';
import type { McpCallOutcome, McpRequestOptions, McpSession } from './session.js';
import { followCaller } from './session.js';
import { type TransportHandle, remoteHandle } from './sdk-session.js';
import { connectWithin } from './sdk-connect.js';
import { sdkRequests } from './sdk-requests.js';
import { identityOf, toCallOutcome } from './sdk-results.js';

const CLIENT_INFO = { name: 'toolplane', version: '0.1.0' } as const;

/** Errors of the v2 client in the shape the provider maps (SDK 1.x `McpError` codes). */
function normalize(error: unknown): unknown {
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout)
      return new McpError(ErrorCode.RequestTimeout, error.message);
    if (error.code === SdkErrorCode.ConnectionClosed)
      return new McpError(ErrorCode.ConnectionClosed, error.message);
    if (error.code === SdkErrorCode.InvalidResult)
      return new McpError(ErrorCode.InvalidParams, `output schema: ${error.message}`);
    return error;
  }
  if (error instanceof ProtocolError) return new McpError(error.code, error.message, error.data);
  return error;
}

async function run<T>(
  options: McpRequestOptions,
  call: (sdk: Record<string, unknown>) => Promise<T>,
): Promise<T> {
  const caller = followCaller(options);
  const sdk: Record<string, unknown> = {
    timeout: options.timeoutMs,
    resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? true,
    ...(caller.signal ? { signal: caller.signal } : {}),
    ...(options.maxTotalTimeoutMs === undefined ? {} : { maxTotalTimeout: options.maxTotalTimeoutMs }),
    ...(options.onProgress ? { onprogress: options.onProgress } : {}),
  };
  try {
    return await call(sdk);
  } catch (error) {
    throw normalize(error);
  } finally {
    caller.stop();
  }
}

/**
 * Connects with the split v2 client (`@modelcontextprotocol/client`) over any transport (its
 * transport interface is the one the 1.x SDK and our own transports implement). It negotiates
 * the version: the stateless 2026-07-28 revision with servers that speak it, an earlier one
 * otherwise. Selected per server with `client: 'v2'`.
 */
export async function openV2Session(
  handle: TransportHandle,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<McpSession> {
  const changeListeners: Array<() => void> = [];
  // On a 2026-07-28 connection the client opens a subscriptions/listen stream for this; on an
  // older one it follows notifications/tools/list_changed. The provider re-lists itself.
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: 'auto' },
    listChanged: {
      tools: {
        autoRefresh: false,
        debounceMs: 0,
        onChanged: () => {
          for (const listener of changeListeners) listener();
        },
      },
    },
  });
  const closeListeners: Array<(reason: string) => void> = [];
  const errorListeners: Array<(message: string) => void> = [];
  let lastError = '';
  let closedByUs = false;
  let closeReported = false;
  const diagnostics = (): string => handle.diagnostics() || lastError;
  client.onerror = (error: Error) => {
    lastError = errorMessage(error);
    for (const listener of errorListeners) listener(lastError);
  };
  client.onclose = () => {
    if (closedByUs || closeReported) return;
    closeReported = true;
    const detail = diagnostics();
    for (const listener of closeListeners)
      listener(detail ? `connection closed: ${detail}` : 'connection closed');
  };
  await connectWithin(handle, options, {
    connect: () =>
      client.connect(
        handle.transport as never,
        { timeout: options.timeoutMs, signal: options.signal } as never,
      ),
    closeClient: () => {
      closedByUs = true;
      return client.close();
    },
    normalize,
    watchNullIds: true,
  });
  const identity = identityOf(client, client.getNegotiatedProtocolVersion());
  return {
    identity,
    transport: handle.kind,
    ...(handle.pid === undefined ? {} : { pid: handle.pid }),
    ...sdkRequests(client, run),
    async callTool(name, args, callOptions): Promise<McpCallOutcome> {
      const result = await run(callOptions, (sdk) => client.callTool({ name, arguments: args }, sdk));
      return toCallOutcome(result);
    },
    async close() {
      closedByUs = true;
      await client.close().catch(() => {});
      await handle.transport.close().catch(() => {});
    },
    onClose(listener) {
      closeListeners.push(listener);
    },
    onToolsChanged(listener) {
      changeListeners.push(listener);
    },
    onProtocolError(listener) {
      errorListeners.push(listener);
    },
    diagnostics,
  };
}

/** The v2 client over streamable HTTP (the transport of the 2026-07-28 revision). */
export function openV2HttpSession(
  url: URL,
  headers: Record<string, string>,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<McpSession> {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  return openV2Session(remoteHandle(transport as never, 'http'), options);
}
