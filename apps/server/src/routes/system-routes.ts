import { createRoute, z } from '@hono/zod-openapi';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, jsonOf } from '../http/schemas.js';
import type { RouteDeps } from './deps.js';

/** Health, readiness and the caller's own principal; metrics and accounting for admins. */
export function registerSystemRoutes(app: ServerApp, deps: RouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/healthz',
      summary: 'The process is up (no key needed)',
      responses: { 200: jsonOf(z.object({ status: z.literal('ok') }), 'Up') },
    }),
    (c) => c.json({ status: 'ok' as const }, 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/readyz',
      summary: 'The database answers and the server is not stopping (no key needed)',
      responses: {
        200: jsonOf(z.object({ status: z.string(), database: z.string() }), 'Ready'),
        503: jsonOf(z.object({ status: z.string(), database: z.string() }), 'Not ready'),
      },
    }),
    async (c) => {
      if (deps.stopping()) return c.json({ status: 'stopping', database: deps.db.kind }, 503);
      try {
        await deps.db.query('SELECT 1');
        return c.json({ status: 'ready', database: deps.db.kind }, 200);
      } catch {
        return c.json({ status: 'database unavailable', database: deps.db.kind }, 503);
      }
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/me',
      summary: 'Who the key is',
      security: [{ bearer: [] }],
      responses: {
        200: jsonOf(
          z.object({ tenantId: z.string(), kind: z.string(), id: z.string(), keyId: z.string() }),
          'The principal',
        ),
        ...AUTH_ERRORS,
      },
    }),
    (c) => c.json(c.get('principal'), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/accounting',
      summary: 'The recent calls of this tenant and totals per tool (admin)',
      security: [{ bearer: [] }],
      responses: {
        200: jsonOf(
          z.object({
            records: z.array(z.record(z.string(), z.unknown())),
            totals: z.record(z.string(), z.unknown()),
          }),
          'Accounting',
        ),
        ...AUTH_ERRORS,
      },
    }),
    async (c) => {
      const runtime = await deps.runtimes.get(c.get('principal').tenantId);
      return c.json(runtime.orchestrator.accounting() as never, 200);
    },
  );
  app.get('/metrics', async (c) => {
    c.header('content-type', deps.metrics.registry.contentType);
    return c.body(await deps.metrics.registry.metrics());
  });
}
