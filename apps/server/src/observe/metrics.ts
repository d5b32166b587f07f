import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The server's Prometheus metrics, in a registry of its own (two servers in one process do not mix). */
export interface ServerMetrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly toolCalls: Counter<'outcome'>;
  readonly toolCallSeconds: Histogram<'outcome'>;
}

/** Creates the metrics (process metrics included). */
export function createMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'toolplane_' });
  return {
    registry,
    httpRequests: new Counter({
      name: 'toolplane_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    toolCalls: new Counter({
      name: 'toolplane_tool_calls_total',
      help: 'Tool calls finished, by outcome (ok or the error code)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    toolCallSeconds: new Histogram({
      name: 'toolplane_tool_call_duration_seconds',
      help: 'Tool call duration, by outcome',
      labelNames: ['outcome'],
      buckets: [0.005, 0.02, 0.1, 0.5, 2, 10, 60],
      registers: [registry],
    }),
  };
}
