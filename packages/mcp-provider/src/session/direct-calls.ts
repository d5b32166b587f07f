import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { onAbort } from '@toolplane/core';
import { bothOutcomesReport, hasBothOutcomes } from './both-outcomes.js';
import type { LateAnswers } from './late-answers.js';
import type { OutputChecks } from './output-checks.js';
import { NOOP, maxTotalTimeoutError } from './request-signal.js';
import { callOutcomeOf, malformedResult } from './sdk-results.js';
import type { McpCallOutcome, McpRequestOptions, McpToolDefinition } from './session.js';

/**
 * A transport that lets the provider send its own JSON-RPC messages next to the SDK's and see
 * every inbound message before the SDK does (our stdio transport).
 */
export interface DirectChannel {
  send(message: Readonly<Record<string, unknown>>): Promise<void>;
  /** `interceptor` returns true for a message it consumed: the SDK never sees that one. */
  setInterceptor(interceptor: ((message: unknown) => boolean) | undefined): void;
}

interface Pending {
  readonly tool: string;
  readonly options: McpRequestOptions;
  readonly startedAt: number;
  resolve(outcome: McpCallOutcome): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout | undefined;
  removeAbort: () => void;
}

// Our ids are strings with a prefix; the SDK numbers its own, so the two never meet.
const ID_PREFIX = 'tp-';

/** An id quoted for a report, cut to 100 characters (a server chooses how long it is). */
function clip(id: string): string {
  return id.length > 100
    ? `${JSON.stringify(id.slice(0, 100))}... (${id.length} characters)`
    : JSON.stringify(id);
}

/**
 * `tools/call` without the SDK's request machinery. The SDK parses every message with zod
 * several times (envelope, type guards, result schema) and needs a fresh `AbortSignal` per
 * request; on stdio that is most of a call's CPU. Here a call is one JSON line out and one
 * `JSON.parse` back, checked by hand, with the same semantics: a per-request timeout that
 * progress notifications restart (bounded by a total), `notifications/cancelled` on abort, the
 * result checked against the tool's output schema, and every pending call rejected with
 * `ConnectionClosed` when the connection ends. Timeouts, closes and the server's own errors are
 * the SDK's `McpError`s, so they map to the same tool results as on the SDK path; a result that
 * breaks the tool's output schema is core's `ToolError` with code `INVALID_RESULT`.
 */
export class DirectCalls {
  private readonly pending = new Map<string, Pending>();
  /** Tools that need task-based execution: those stay on the SDK path, which refuses them. */
  private readonly taskTools = new Set<string>();
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly channel: DirectChannel,
    /** The session's output schemas (learned from every page by the session, not here). */
    private readonly outputs: OutputChecks,
    /** The requests given up on (its transport's sends are followed, our cancels too). */
    private readonly late: LateAnswers,
    /** Hears an answer to an id this path never sent (a protocol error; the listener coalesces). */
    private readonly onStray: (message: string) => void = NOOP,
  ) {
    channel.setInterceptor((message) => this.intercept(message));
  }

  /** Remembers the task-only tools of `tools/list` (the first page starts a new list). */
  learnTools(tools: readonly McpToolDefinition[], firstPage: boolean): void {
    if (firstPage) this.taskTools.clear();
    for (const tool of tools) {
      const execution = (tool as { execution?: { taskSupport?: unknown } }).execution;
      if (execution?.taskSupport === 'required') this.taskTools.add(tool.name);
    }
  }

  /** Whether a tool can be called here (not one that requires task-based execution). */
  handles(name: string): boolean {
    return !this.taskTools.has(name);
  }

  callTool(name: string, args: Record<string, unknown>, options: McpRequestOptions): Promise<McpCallOutcome> {
    if (this.closed) return Promise.reject(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
    const id = `${ID_PREFIX}${++this.nextId}`;
    return new Promise<McpCallOutcome>((resolve, reject) => {
      const entry: Pending = {
        tool: name,
        options,
        startedAt: Date.now(),
        resolve,
        reject,
        timer: undefined,
        removeAbort: NOOP,
      };
      this.pending.set(id, entry);
      this.arm(id, entry);
      const params: Record<string, unknown> = { name, arguments: args };
      if (options.onProgress) params._meta = { progressToken: id };
      this.channel.send({ jsonrpc: '2.0', id, method: 'tools/call', params }).catch((error: unknown) => {
        if (this.settle(id)) reject(error);
      });
      // after the request is on its way: an abort (even one that already happened) is then
      // always followed by its notifications/cancelled
      if (options.abort && this.pending.has(id)) {
        entry.removeAbort = onAbort(options.abort, (reason) => this.cancel(id, reason));
      }
    });
  }

  /** Rejects every pending call: the connection is gone. */
  close(): void {
    this.closed = true;
    this.channel.setInterceptor(undefined);
    for (const id of [...this.pending.keys()]) {
      this.settle(id)?.reject(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
    }
  }

  private intercept(message: unknown): boolean {
    if (typeof message !== 'object' || message === null) return false;
    const fields = message as Record<string, unknown>;
    const id = fields.id;
    if (typeof id === 'string' && id.startsWith(ID_PREFIX) && fields.method === undefined) {
      this.answer(id, fields);
      return true;
    }
    if (fields.method === 'notifications/progress') {
      const params = fields.params as Record<string, unknown> | undefined;
      const token = params?.progressToken;
      if (typeof token === 'string' && token.startsWith(ID_PREFIX)) {
        if (this.pending.has(token)) this.progress(token, params as Record<string, unknown>);
        else if (!this.late.isLate(message))
          this.onStray(`Received a progress notification for an unknown token: ${clip(token)}`);
        return true;
      }
    }
    return false;
  }

  private answer(id: string, response: Record<string, unknown>): void {
    const entry = this.settle(id);
    if (!entry) {
      // an answer to a call given up on (timed out or cancelled) is dropped quietly, as on the
      // SDK paths (see LateAnswers); one to an id never sent, or a second one, is the server's
      // mistake, reported as the SDKs report one of their own ids
      if (!this.late.isLate(response))
        this.onStray(`Received a response for an unknown message ID: ${clip(id)}`);
      return;
    }
    const error = response.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (error !== undefined && hasBothOutcomes(response)) this.onStray(bothOutcomesReport(id));
    if (error !== undefined) {
      const code = typeof error?.code === 'number' ? error.code : ErrorCode.InternalError;
      const text =
        typeof error?.message === 'string' ? error.message : 'the server sent an error without a message';
      entry.reject(new McpError(code, text, error?.data));
      return;
    }
    const outcome = callOutcomeOf(response.result);
    if (typeof outcome === 'string') {
      entry.reject(malformedResult(outcome));
      return;
    }
    const problem = this.outputs.check(entry.tool, outcome);
    if (problem) entry.reject(problem);
    else entry.resolve(outcome);
  }

  private progress(id: string, params: Record<string, unknown>): void {
    const entry = this.pending.get(id);
    if (!entry || typeof params.progress !== 'number') return;
    const { options } = entry;
    if (options.resetTimeoutOnProgress !== false) {
      this.arm(id, entry);
      if (!this.pending.has(id)) return; // past maxTotalTimeoutMs: failed, not progressing
    }
    try {
      options.onProgress?.({
        progress: params.progress,
        ...(typeof params.total === 'number' ? { total: params.total } : {}),
        ...(typeof params.message === 'string' ? { message: params.message } : {}),
      });
    } catch {
      // a failing progress listener must not lose the call's answer
    }
  }

  /**
   * (Re)starts a call's timer: the request timeout, or what is left of `maxTotalTimeoutMs` when
   * that is less (a hard cap, progress or not).
   */
  private arm(id: string, entry: Pending): void {
    if (entry.timer) clearTimeout(entry.timer);
    const { timeoutMs, maxTotalTimeoutMs: total } = entry.options;
    const left = total === undefined ? Number.POSITIVE_INFINITY : total - (Date.now() - entry.startedAt);
    if (total !== undefined && left <= timeoutMs) {
      if (left <= 0) {
        this.expire(id, 'maximum total timeout exceeded', maxTotalTimeoutError(total));
        return;
      }
      entry.timer = setTimeout(
        () => this.expire(id, 'maximum total timeout exceeded', maxTotalTimeoutError(total)),
        left,
      );
      return;
    }
    entry.timer = setTimeout(
      () =>
        this.expire(
          id,
          `request timed out after ${timeoutMs} ms`,
          new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs }),
        ),
      timeoutMs,
    );
  }

  /** Fails a call that ran out of time and tells the server to stop. */
  private expire(id: string, reason: string, error: McpError): void {
    const entry = this.settle(id);
    if (!entry) return;
    this.notifyCancelled(id, reason);
    entry.reject(error);
  }

  private cancel(id: string, reason: unknown): void {
    const entry = this.settle(id);
    if (!entry) return;
    this.notifyCancelled(id, reason instanceof Error ? reason.message : String(reason));
    entry.reject(reason);
  }

  private notifyCancelled(id: string, reason: string): void {
    this.channel
      .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } })
      .catch(() => {}); // the server is gone: nothing to tell
  }

  /** Removes a pending call and its timer and abort listener; undefined when it was settled. */
  private settle(id: string): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    if (entry.timer) clearTimeout(entry.timer);
    entry.removeAbort();
    return entry;
  }
}
