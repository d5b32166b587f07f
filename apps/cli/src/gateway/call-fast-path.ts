import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  CancelledNotificationSchema,
  type CallToolRequest,
  ErrorCode,
  type JSONRPCMessage,
  McpError,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { SendToClient } from './approval-elicitation.js';
import { CallAbort } from './call-abort.js';
import { isPlainCallResult, isPlainToolsCall } from './call-shapes.js';

type Id = string | number;

/** What a `tools/call` handler gets from its request, on either path (the SDK's or the fast one). */
export interface ToolCallExtra {
  readonly signal: AbortSignal;
  /**
   * The call's cancellation without an `AbortSignal` (the fast path's; see {@link CallAbort}):
   * given, the orchestrator is handed this instead of `signal`.
   */
  onAbort?(listener: (reason: unknown) => void): () => void;
  sendNotification(notification: ServerNotification): Promise<void>;
  readonly sendRequest: SendToClient;
}

/** The gateway's `tools/call` handler; the result goes back to the client as it is. */
export type ToolCallHandler = (request: CallToolRequest, extra: ToolCallExtra) => Promise<unknown>;

/** The result the SDK server would send for `result`, or the error it would throw. */
function checkedResult(result: unknown): unknown {
  if (isPlainCallResult(result)) return result;
  const parsed = safeParse(CallToolResultSchema, result);
  if (parsed.success) return parsed.data;
  const problem = parsed.error instanceof Error ? parsed.error.message : String(parsed.error);
  throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${problem}`);
}

/** The error response the SDK server sends for a handler that threw `error`. */
function errorResponse(id: Id, error: unknown): JSONRPCMessage {
  const fields = error as { code?: unknown; message?: string; data?: unknown };
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: Number.isSafeInteger(fields.code) ? (fields.code as number) : ErrorCode.InternalError,
      message: fields.message ?? 'Internal error',
      ...(fields.data !== undefined && { data: fields.data }),
    },
  };
}

/**
 * Runs the `tools/call` requests of a connected transport without the SDK server's request
 * machinery, which parses each one with zod five times (the message type guards, the request
 * schema twice, the result schema); with many calls in flight that was the gateway's largest
 * cost after the pipeline itself. Only requests {@link isPlainToolsCall} proves the SDK's schemas
 * accept unchanged take this path (anything else, such as a task-augmented call, goes to the
 * SDK); the handler is the one the SDK path runs, so policy, approvals, scrubbing and the size
 * cap apply as there. What the SDK server does per request is kept: a cancellation ({@link CallAbort})
 * that `notifications/cancelled` and the transport's close abort, no answer to a cancelled call,
 * notifications and requests to the client related to the call, the result checked against
 * `CallToolResultSchema` (by hand when {@link isPlainCallResult} can tell, else by the schema),
 * and a thrown error answered with its code, message and data. Call right after
 * `server.connect(transport)`, before other wrappers of `onmessage` and `send`.
 */
export function installCallFastPath(server: Server, transport: Transport, handle: ToolCallHandler): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  const running = new Map<Id, CallAbort>();
  const closed = transport.onclose;
  transport.onclose = () => {
    for (const controller of running.values()) controller.abort();
    running.clear();
    closed?.();
  };

  const cancel = (message: JSONRPCMessage): void => {
    // as the SDK's own handler: parsed with its schema, a microtask late, id 0 not cancellable
    void Promise.resolve().then(() => {
      const parsed = CancelledNotificationSchema.safeParse(message);
      const requestId = parsed.success ? parsed.data.params.requestId : undefined;
      if (parsed.success && requestId) running.get(requestId)?.abort(parsed.data.params.reason);
    });
  };

  const run = (request: CallToolRequest & { id: Id }): void => {
    const { id } = request;
    const controller = new CallAbort();
    running.set(id, controller);
    const extra: ToolCallExtra = {
      get signal() {
        return controller.signal;
      },
      onAbort: (listener) => controller.onAbort(listener),
      async sendNotification(notification) {
        if (controller.aborted) return;
        await server.notification(notification, { relatedRequestId: id });
      },
      async sendRequest(sent, schema, options) {
        if (controller.aborted) throw new McpError(ErrorCode.ConnectionClosed, 'Request was cancelled');
        return server.request(sent as never, schema, { ...options, relatedRequestId: id });
      },
    };
    handle(request, extra)
      .then(checkedResult)
      .then(
        (result) =>
          controller.aborted ? undefined : transport.send({ jsonrpc: '2.0', id, result } as never),
        (error: unknown) => (controller.aborted ? undefined : transport.send(errorResponse(id, error))),
      )
      .catch((error: unknown) => server.onerror?.(new Error(`Failed to send response: ${error}`)))
      .finally(() => {
        if (running.get(id) === controller) running.delete(id);
      });
  };

  transport.onmessage = (message, extra) => {
    if (isPlainToolsCall(message)) {
      run(message as unknown as CallToolRequest & { id: Id });
      return;
    }
    if (running.size > 0 && 'method' in message && message.method === 'notifications/cancelled')
      cancel(message);
    deliver.call(transport, message, extra);
  };
}
