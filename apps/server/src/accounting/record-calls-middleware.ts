import type { Middleware } from '@toolplane/core';
import { fromCorePrincipal } from '../auth/core-principal.js';
import type { CallRecorder } from './call-recorder.js';

/**
 * Books every call that reaches a tool (those of clients and those tools make), outermost in
 * the pipeline so denied and rate-limited calls are booked too, with the trace ids the
 * orchestrator gives it: the parent call and the top-level call it descends from.
 */
export function recordCallsMiddleware(tenantId: string, recorder: CallRecorder): Middleware {
  return {
    name: 'server-call-records',
    phase: 'observe',
    async handle(call, next) {
      const startedAt = Date.now();
      const started = performance.now();
      const result = await next(call);
      const principal = fromCorePrincipal(call.ctx.principal);
      recorder.record({
        tenantId,
        callId: call.ctx.callId,
        parentId: call.ctx.trace.parentId ?? null,
        originId: call.ctx.trace.originId,
        sessionId: call.ctx.session.id,
        principalKind: principal?.kind ?? '',
        principalId: principal?.id ?? '',
        tool: call.tool.name,
        ok: result.ok,
        code: result.ok ? null : result.error.code,
        latencyMs: Math.round((performance.now() - started) * 100) / 100,
        startedAt,
      });
      return result;
    },
  };
}
