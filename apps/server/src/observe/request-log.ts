import type { MiddlewareHandler } from 'hono';
import type { Scrubber } from '@toolplane/scrubber';
import type { ServerPrincipal } from '../auth/principal.js';
import type { ServerEnv } from '../http/env.js';
import type { ServerMetrics } from './metrics.js';

/** Where structured log lines go (one JSON object a line). */
export type LogSink = (line: string) => void;

/** What is logged of one answered request. */
export interface AnsweredRequest {
  readonly method: string;
  /** The route pattern (`/v1/tools/:name/call`), `unmatched` when none matched. */
  readonly route: string;
  readonly path: string;
  readonly status: number;
  readonly principal: ServerPrincipal | undefined;
  /** `performance.now()` when the request arrived. */
  readonly started: number;
}

/** Options of {@link requestLogger}. */
export interface RequestLogOptions {
  readonly log: LogSink;
  readonly scrubber: Scrubber;
  readonly metrics: ServerMetrics;
}

/**
 * Counts a request in the metrics and writes its JSON line (method, path, status, principal,
 * duration). Only the fields a client or an admin chose (the path, the tenant, the principal
 * id) can carry a secret: the scrubber runs on those, the fixed fields are written as they are.
 */
export function requestLogger(options: RequestLogOptions): (request: AnsweredRequest) => void {
  const scrub = (text: string): string => options.scrubber.scrubText(text);
  return ({ method, route, path, status, principal, started }) => {
    options.metrics.httpRequests.inc({ method, route, status: String(status) });
    const entry = {
      time: new Date().toISOString(),
      level: status >= 500 ? 'error' : 'info',
      method,
      path: scrub(path),
      status,
      ...(principal
        ? { tenant: scrub(principal.tenantId), principal: scrub(`${principal.kind}:${principal.id}`) }
        : {}),
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    options.log(JSON.stringify(entry));
  };
}

/** The hono middleware of {@link requestLogger}: one line per request the app answers. */
export function requestLog(options: RequestLogOptions): MiddlewareHandler<ServerEnv> {
  const logged = requestLogger(options);
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const routePath = c.req.routePath;
      logged({
        method: c.req.method,
        route: routePath === '/*' || !routePath ? 'unmatched' : routePath,
        path: c.req.path,
        status: c.res.status,
        principal: c.get('principal'),
        started,
      });
    }
  };
}
