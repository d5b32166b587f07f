import { ProxyTracerProvider, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ToolResult } from '@toolplane/core';

// A proxy tracer: a no-op until the app registers an OpenTelemetry SDK, then real spans.
const tracer = trace.getTracer('@toolplane/orchestrator', '0.1.0');

// What an OpenTelemetry API proxy delegates to while no SDK is registered.
const NO_SDK = new ProxyTracerProvider().getDelegate();

/** False while no OpenTelemetry SDK is registered: then a call makes no span object at all. */
function tracing(): boolean {
  const provider = trace.getTracerProvider();
  // another copy of the API registered a provider: its proxy is not ours, assume it traces
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NO_SDK;
}

/**
 * Starts an `execute_tool {name}` span with the GenAI semantic-convention attributes, or
 * nothing while no OpenTelemetry SDK is registered.
 */
export function startToolSpan(tool: string, callId: string, provider: string): Span | undefined {
  if (!tracing()) return undefined;
  return tracer.startSpan(`execute_tool ${tool}`, {
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
    span.setStatus({ code: SpanStatusCode.ERROR, message: result.error.message });
  }
  span.end();
}
