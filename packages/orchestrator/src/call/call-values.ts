import {
  type CallMeta,
  type ProgressUpdate,
  type ToolContext,
  type ToolContextInit,
  type ToolResult,
  type ToolServices,
  contentBytes,
} from '@toolplane/core';
import type { CallState } from './call-state.js';
import type { EventHub } from '../observe/events.js';
import type { ToolRoute } from '../registry/registry.js';
import { NOOP } from './noop.js';
import { thrownMessage } from './thrown.js';

/** A writable view of a readonly type, for objects built field by field. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Shared empty defaults (frozen: a tool cannot change them for everyone). */
export const NO_PRINCIPAL: Readonly<Record<string, never>> = Object.freeze({});
export const NO_SERVICES: Readonly<Record<string, never>> = Object.freeze({});

/** The result with its call metadata attached (explicit literals: no spread on the hot path). */
export function withMeta(result: ToolResult, meta: CallMeta): ToolResult {
  if (result.ok) {
    return result.structured === undefined
      ? { ok: true, content: result.content, meta }
      : { ok: true, content: result.content, structured: result.structured, meta };
  }
  return result.content === undefined
    ? { ok: false, error: result.error, meta }
    : { ok: false, error: result.error, content: result.content, meta };
}

/** The arguments as an object, or why they are not one (models sometimes send a JSON string). */
export function normalizeArgs(args: unknown): Record<string, unknown> | string {
  if (args === undefined || args === null) return {};
  if (typeof args === 'string') {
    const trimmed = args.trim();
    if (trimmed === '') return {};
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      return 'must be a JSON object; got a string that is not JSON';
    }
    return 'must be a JSON object; got a JSON string that is not an object';
  }
  if (typeof args !== 'object') return `must be a JSON object; got ${typeof args}`;
  if (Array.isArray(args)) return 'must be a JSON object; got an array';
  return args as Record<string, unknown>;
}

/**
 * Size of the arguments as JSON, in bytes, or why they are not JSON data (a BigInt, a cycle, a
 * getter or proxy that throws): arguments reach MCP and REST providers, the cache and logs as JSON.
 */
export function jsonBytes(args: Record<string, unknown>): number | string {
  try {
    // `{}` is by far the most common argument object: answer it without serializing
    for (const _key in args) return Buffer.byteLength(JSON.stringify(args));
    return 2;
  } catch (error) {
    // JSON.parse makes values nested 100,000 deep; JSON.stringify gives up after a few thousand
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return `nest too deep to be sent as JSON (${thrownMessage(error)}); send flatter arguments`;
    }
    if (error instanceof RangeError) {
      return `are too large to be sent as JSON (${thrownMessage(error)}); send smaller arguments`;
    }
    return `must be JSON data; serializing them failed (${thrownMessage(error)})`;
  }
}

/** The session, trace, principal (the checked copy admission made) and services of a call context. */
export function contextFields(
  options: ToolContextInit,
  principal: ToolContext['principal'] | undefined,
  tool: string,
  sessionId: string,
  defaultServices: ToolServices | undefined,
  progress: (update: ProgressUpdate) => void,
): Pick<ToolContext, 'principal' | 'session' | 'trace' | 'services' | 'progress'> {
  const session = options.session;
  const trace = options.trace;
  return {
    principal: principal ?? NO_PRINCIPAL,
    session: session ? { depth: session.depth ?? 0, ...session, id: sessionId } : { id: sessionId, depth: 0 },
    trace: trace
      ? { originId: trace.originId ?? sessionId, ...trace, callPath: [...(trace.callPath ?? []), tool] }
      : { originId: sessionId, callPath: [tool] },
    services: options.services ?? defaultServices ?? NO_SERVICES,
    progress,
  };
}

/** The metadata of a finished call. */
export function callMeta(
  callId: string,
  route: ToolRoute,
  state: CallState,
  latencyMs: number,
  bytesIn: number,
  result: ToolResult,
): CallMeta {
  const meta: Mutable<CallMeta> = {
    callId,
    tool: route.name,
    provider: route.provider.namespace,
    kind: route.provider.kind,
    latencyMs,
    queueWaitMs: state.queueWaitMs,
    bytesIn,
    bytesOut: result.content ? contentBytes(result.content) : 0,
    cached: state.cached,
    attempts: state.attempts,
  };
  if (state.truncated) meta.truncated = state.truncated;
  return meta;
}

/**
 * The `progress` of a call's context: `tool_progress` events and the caller's callback, silent
 * once the call has stopped or ended (a tool that reports after it returned must not show up
 * under a later call that reuses its id); a no-op when nobody listens.
 */
export function progressReporter(
  events: EventHub,
  state: CallState,
  sessionId: string,
  userProgress: ((update: ProgressUpdate) => void) | undefined,
): (update: ProgressUpdate) => void {
  if (!userProgress && !events.has('tool_progress')) return NOOP;
  return (update) => {
    if (state.stopReason || state.finished) return;
    events.emit('tool_progress', { callId: state.callId, tool: state.route.name, sessionId, update });
    // the caller's callback is not the tool's: its bug must not fail the call
    try {
      userProgress?.(update);
    } catch (error) {
      process.emitWarning(`a progress callback threw: ${thrownMessage(error)}`, 'ToolplaneWarning');
    }
  };
}
