import type { CallMeta, ToolResult } from '@toolplane/core';
import type { Accounting } from './accounting.js';
import type { EventHub } from './events.js';

/** Metadata of a call that ended before reaching a provider (unknown tool, bad arguments). */
export function earlyMeta(tool: string, callId: string, latencyMs: number): CallMeta {
  return {
    callId,
    tool,
    provider: '',
    kind: '',
    latencyMs,
    queueWaitMs: 0,
    bytesIn: 0,
    bytesOut: 0,
    cached: false,
    attempts: 0,
  };
}

/** Books a finished call and tells `tool_finished` listeners. */
export function recordCall(
  accounting: Accounting,
  events: EventHub,
  result: ToolResult,
  meta: CallMeta,
  sessionId: string,
  startedAt: number,
  totalsKey: string = meta.tool,
): void {
  accounting.record(meta, sessionId, startedAt, result.ok ? undefined : result.error.code, totalsKey);
  if (!events.has('tool_finished')) return;
  // explicit literals: an object spread here is a slow path on every call
  events.emit(
    'tool_finished',
    result.ok
      ? { callId: meta.callId, tool: meta.tool, sessionId, ok: true, meta }
      : { callId: meta.callId, tool: meta.tool, sessionId, ok: false, error: result.error, meta },
  );
}
