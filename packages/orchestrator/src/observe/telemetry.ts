import { createRequire } from 'node:module';
import type { Span } from '@opentelemetry/api';
import type { ToolResult } from '@toolplane/core';

type OpenTelemetryApi = typeof import('@opentelemetry/api');

/**
 * The slot every copy of the OpenTelemetry API 1.x keeps its registrations in: an app that
 * registered an SDK has its tracer provider there. Read before the API is loaded, so a process
 * that traces nothing (a CLI command) never loads it.
 */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

let api: { readonly module: OpenTelemetryApi; readonly noSdk: unknown } | undefined;

/** The API (loaded on first need: synchronously, as a span starts inside a call). */
function openTelemetry(): { readonly module: OpenTelemetryApi; readonly noSdk: unknown } {
  if (!api) {
    const module = createRequire(import.meta.url)('@opentelemetry/api') as OpenTelemetryApi;
    // what an OpenTelemetry API proxy delegates to while no SDK is registered
    api = { module, noSdk: new module.ProxyTracerProvider().getDelegate() };
  }
  return api;
}

/** False while no OpenTelemetry SDK is registered: then a call makes no span object at all. */
function tracing(): boolean {
  const slot = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[API_GLOBAL];
  if (slot?.trace === undefined) return false;
  const { module, noSdk } = openTelemetry();
  const provider = module.trace.getTracerProvider();
  // another copy of the API registered a provider: its proxy is not ours, assume it traces
  return !(provider instanceof module.ProxyTracerProvider) || provider.getDelegate() !== noSdk;
}

/**
 * Starts an `execute_tool {name}` span with the GenAI semantic-convention attributes, or
 * nothing while no OpenTelemetry SDK is registered.
 */
export function startToolSpan(tool: string, callId: string, provider: string): Span | undefined {
  if (!tracing()) return undefined;
  const { trace, SpanKind } = openTelemetry().module;
  return trace.getTracer('@toolplane/orchestrator', '0.1.0').startSpan(`execute_tool ${tool}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool,
      'gen_ai.tool.call.id': callId,
      'gen_ai.tool.type': 'function',
      'toolplane.provider': provider,
    },
  });
}

/** Ends a tool span with the outcome. */
export function endToolSpan(span: Span | undefined, result: ToolResult, cached: boolean): void {
  if (!span) return;
  if (!span.isRecording()) {
    span.end();
    return;
  }
  span.setAttribute('toolplane.cached', cached);
  if (!result.ok) {
    span.setAttribute('error.type', result.error.code);
    span.setStatus({ code: openTelemetry().module.SpanStatusCode.ERROR, message: result.error.message });
  }
  span.end();
}
