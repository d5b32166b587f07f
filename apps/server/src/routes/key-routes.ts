import { createRoute, z } from '@hono/zod-openapi';
import { announceKeyRevoked } from '../auth/key-changes.js';
import { createKey, listKeys, revokeKey } from '../auth/key-store.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, PrincipalId, bodyOf, jsonOf } from '../http/schemas.js';
import type { RouteDeps } from './deps.js';

const KeySchema = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    kind: z.enum(['admin', 'agent', 'user']),
    principalId: z.string(),
    label: z.string(),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
  })
  .openapi('ApiKey');
const NewKey = z.object({
  kind: z.enum(['admin', 'agent', 'user']),
  principalId: PrincipalId,
  label: z.string().max(200).optional(),
});
const Created = z.object({
  key: z.string().openapi({ description: 'The key itself: shown this once, stored only hashed' }),
  record: KeySchema,
});
const secured = { security: [{ bearer: [] }] };

/** Admin: keys of the caller's tenant, and tenants (for admins of the root tenant). */
export function registerKeyRoutes(app: ServerApp, deps: RouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/keys',
      summary: 'The keys of this tenant (never the keys themselves)',
      ...secured,
      responses: { 200: jsonOf(z.object({ keys: z.array(KeySchema) }), 'Keys'), ...AUTH_ERRORS },
    }),
    async (c) => c.json({ keys: await listKeys(deps.db, c.get('principal').tenantId) }, 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/keys',
      summary: 'Creates a key for an admin, agent or user of this tenant',
      ...secured,
      request: bodyOf(NewKey),
      responses: { 201: jsonOf(Created, 'The new key, shown once'), ...AUTH_ERRORS },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const created = await createKey(deps.db, { tenantId: c.get('principal').tenantId, ...input });
      return c.json(created, 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/keys/{id}',
      summary: 'Revokes a key at once',
      ...secured,
      request: { params: z.object({ id: z.string().max(200) }) },
      responses: {
        200: jsonOf(z.object({ key: KeySchema }), 'The revoked key'),
        ...AUTH_ERRORS,
        404: jsonOf(z.object({}), 'No such key in this tenant'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const key = await revokeKey(deps.db, c.get('principal').tenantId, id);
      if (!key) throw notFound('key', id);
      // refused from the next request on, here at once and on the other instances as told
      deps.principals.forgetKey(key.id);
      await announceKeyRevoked(deps.db, key.id);
      return c.json({ key }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/tenants',
      summary: 'Creates a tenant and its first admin key (admins of the root tenant only)',
      ...secured,
      request: bodyOf(z.object({ id: PrincipalId, adminId: PrincipalId.default('admin') })),
      responses: {
        201: jsonOf(Created, "The tenant's first admin key, shown once"),
        ...AUTH_ERRORS,
        409: jsonOf(z.object({}), 'The tenant exists'),
      },
    }),
    async (c) => {
      if (c.get('principal').tenantId !== deps.rootTenantId)
        throw new ApiError(
          403,
          'DENIED',
          'root_admin_only',
          `only admins of the root tenant "${deps.rootTenantId}" create tenants`,
        );
      const { id, adminId } = c.req.valid('json');
      const created = await deps.db.transaction(async (tx) => {
        const inserted = await tx.query(
          'INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id',
          [id],
        );
        if (inserted.length === 0)
          throw new ApiError(
            409,
            'INVALID_ARGUMENTS',
            'exists',
            `tenant "${id}" exists already: pick another id`,
          );
        return createKey(tx, { tenantId: id, kind: 'admin', principalId: adminId });
      });
      return c.json(created, 201);
    },
  );
}
