import type { MiddlewareHandler } from 'hono';
import type { Scrubber } from '@toolplane/scrubber';
import type { ServerEnv } from '../http/env.js';
import type { ServerMetrics } from './metrics.js';

/** Where structured log lines go (one JSON object a line). */
export type LogSink = (line: string) => void;

/**
 * One JSON line per request (method, route, status, principal, duration) with the scrubber
 * applied, and the request counter of the metrics.
 */
export function requestLog(options: {
  log: LogSink;
  scrubber: Scrubber;
  metrics: ServerMetrics;
}): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const status = c.res.status;
      const route = c.req.routePath === '/*' || !c.req.routePath ? 'unmatched' : c.req.routePath;
      options.metrics.httpRequests.inc({ method: c.req.method, route, status: String(status) });
      const principal = c.get('principal');
      const entry = {
        time: new Date().toISOString(),
        level: status >= 500 ? 'error' : 'info',
        method: c.req.method,
        path: c.req.path,
        status,
        ...(principal ? { tenant: principal.tenantId, principal: `${principal.kind}:${principal.id}` } : {}),
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      };
      options.log(options.scrubber.scrubText(JSON.stringify(entry)));
    }
  };
}
