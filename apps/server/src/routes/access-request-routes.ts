import { createRoute, z } from '@hono/zod-openapi';
import {
  createAccessRequest,
  decideAccessRequest,
  listAccessRequests,
} from '../access-requests/access-request-store.js';
import { ApiError } from '../http/api-error.js';
import type { MiddlewareHandler } from 'hono';
import type { ServerApp, ServerEnv } from '../http/env.js';
import { AUTH_ERRORS, ToolPatternList, bodyOf, jsonOf } from '../http/schemas.js';
import type { RouteDeps } from './deps.js';

const RequestSchema = z
  .object({
    id: z.string(),
    principalKind: z.enum(['agent', 'user']),
    principalId: z.string(),
    tools: z.array(z.string()),
    reason: z.string(),
    status: z.enum(['pending', 'approved', 'rejected']),
    grantId: z.string().nullable(),
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .openapi('AccessRequest');
const secured = { security: [{ bearer: [] }] };
const IdParam = z.object({ id: z.string().max(200) });

/** Agents and users ask for tools; admins approve (creating the grant) or reject. */
export function registerAccessRequestRoutes(
  app: ServerApp,
  deps: RouteDeps,
  adminOnly: MiddlewareHandler<ServerEnv>,
): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/access-requests',
      summary: 'Asks for tools (agent and user keys)',
      ...secured,
      request: bodyOf(z.object({ tools: ToolPatternList.min(1), reason: z.string().max(2000).default('') })),
      responses: { 201: jsonOf(z.object({ request: RequestSchema }), 'The pending request'), ...AUTH_ERRORS },
    }),
    async (c) => {
      const principal = c.get('principal');
      if (principal.kind === 'admin')
        throw new ApiError(
          400,
          'INVALID_ARGUMENTS',
          'admin_needs_no_grant',
          'admin keys use every tool of their tenant and need no access request',
        );
      const { tools, reason } = c.req.valid('json');
      const request = await createAccessRequest(deps.db, principal.tenantId, {
        principalKind: principal.kind,
        principalId: principal.id,
        tools,
        reason,
      });
      return c.json({ request }, 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/access-requests',
      summary: 'Admins: every request of the tenant; others: their own',
      ...secured,
      responses: { 200: jsonOf(z.object({ requests: z.array(RequestSchema) }), 'Requests'), ...AUTH_ERRORS },
    }),
    async (c) => {
      const principal = c.get('principal');
      const requests = await listAccessRequests(
        deps.db,
        principal.tenantId,
        principal.kind === 'admin' ? undefined : { kind: principal.kind, id: principal.id },
      );
      return c.json({ requests }, 200);
    },
  );
  for (const decision of ['approve', 'reject'] as const) {
    app.use(`/v1/access-requests/:id/${decision}`, adminOnly);
    app.openapi(
      createRoute({
        method: 'post',
        path: `/v1/access-requests/{id}/${decision}`,
        summary:
          decision === 'approve'
            ? 'Approves a request and creates its grant in the same transaction (admin)'
            : 'Rejects a request (admin)',
        ...secured,
        request: { params: IdParam },
        responses: {
          200: jsonOf(
            z.object({ request: RequestSchema, grant: z.record(z.string(), z.unknown()).optional() }),
            'Decided',
          ),
          ...AUTH_ERRORS,
          404: jsonOf(z.object({}), 'No such request'),
          409: jsonOf(z.object({}), 'Decided already'),
        },
      }),
      async (c) => {
        const tenantId = c.get('principal').tenantId;
        const outcome = await decideAccessRequest(deps.db, tenantId, c.req.valid('param').id, decision);
        if (outcome.grant) await deps.runtimes.reloadGrants(tenantId);
        return c.json(outcome as never, 200);
      },
    );
  }
}
