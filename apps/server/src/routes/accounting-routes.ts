import { createRoute, z } from '@hono/zod-openapi';
import type { CallRecord } from '../accounting/call-record.js';
import { findCallRecord, listCallsOfOrigin, listRecentCalls } from '../accounting/call-record-store.js';
import { buildCallTree } from '../accounting/call-tree.js';
import { notFound } from '../http/api-error.js';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, jsonOf } from '../http/schemas.js';
import type { RouteDeps } from './deps.js';

/** The most calls one tree answer holds. */
export const MAX_TREE_CALLS = 1_000;

const CallFields = {
  callId: z.string(),
  parentId: z.string().nullable(),
  originId: z.string(),
  sessionId: z.string(),
  principalKind: z.string(),
  principalId: z.string(),
  tool: z.string(),
  ok: z.boolean(),
  code: z.string().nullable(),
  latencyMs: z.number(),
  startedAt: z.number().openapi({ description: 'Epoch milliseconds' }),
};
const CallSchema = z.object(CallFields).openapi('CallRecord');
type TreeShape = z.infer<typeof CallSchema> & { children: TreeShape[] };
const TreeSchema: z.ZodType<TreeShape> = z
  .lazy(() => z.object({ ...CallFields, children: z.array(TreeSchema) }))
  .openapi('CallTree');

const withoutTenant = ({ tenantId: _tenant, ...call }: CallRecord): Omit<CallRecord, 'tenantId'> => call;

/**
 * Admin: the tenant's booked calls from the database (every instance's), and a call's operation
 * tree, the calls it made linked by their parent ids.
 */
export function registerAccountingRoutes(app: ServerApp, deps: RouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/accounting/calls',
      summary: 'The most recent calls of this tenant made by clients, newest first (admin)',
      security: [{ bearer: [] }],
      request: { query: z.object({ limit: z.coerce.number().int().min(1).max(1_000).default(100) }) },
      responses: { 200: jsonOf(z.object({ calls: z.array(CallSchema) }), 'Calls'), ...AUTH_ERRORS },
    }),
    async (c) => {
      const { limit } = c.req.valid('query');
      const calls = await listRecentCalls(deps.db, c.get('principal').tenantId, limit);
      return c.json({ calls: calls.map(withoutTenant) }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/accounting/calls/{id}/tree',
      summary: "A call's operation tree: the call and the calls it made, nested by parent (admin)",
      security: [{ bearer: [] }],
      request: { params: z.object({ id: z.string().min(1).max(200) }) },
      responses: {
        200: jsonOf(z.object({ tree: TreeSchema, truncated: z.boolean() }), 'The tree'),
        ...AUTH_ERRORS,
        404: jsonOf(z.object({}), 'No such call in this tenant (or not booked yet)'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const tenantId = c.get('principal').tenantId;
      const call = await findCallRecord(deps.db, tenantId, id);
      if (!call) throw notFound('call', id);
      const calls = await listCallsOfOrigin(deps.db, tenantId, call.originId, MAX_TREE_CALLS + 1);
      const tree = buildCallTree(calls.slice(0, MAX_TREE_CALLS), id) ?? {
        ...withoutTenant(call),
        children: [],
      };
      return c.json({ tree, truncated: calls.length > MAX_TREE_CALLS }, 200);
    },
  );
}
