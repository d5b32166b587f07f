import { createRoute, z } from '@hono/zod-openapi';
import { deleteGrant, getGrant, insertGrant, listGrants, updateGrant } from '../grants/grant-store.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, ErrorSchema, PrincipalId, ToolPatternList, bodyOf, jsonOf } from '../http/schemas.js';
import type { RouteDeps } from './deps.js';

const GrantSchema = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    principalKind: z.enum(['agent', 'user']),
    principalId: z.string(),
    allow: z.array(z.string()),
    deny: z.array(z.string()),
    enabled: z.boolean(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Grant');
const NewGrant = z.object({
  principalKind: z.enum(['agent', 'user']),
  principalId: PrincipalId,
  allow: ToolPatternList,
  deny: ToolPatternList.optional(),
  enabled: z.boolean().optional(),
});
const GrantPatch = z.object({
  allow: ToolPatternList.optional(),
  deny: ToolPatternList.optional(),
  enabled: z.boolean().optional(),
});
const IdParam = z.object({ id: z.string().max(200) });
const secured = { security: [{ bearer: [] }] };
const missing = { 404: jsonOf(z.object({}), 'No such grant in this tenant') };

/** The version an `If-Match` header names (`"3"`, `W/"3"` or `3`); undefined without one. */
function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match)
    throw new ApiError(
      400,
      'INVALID_ARGUMENTS',
      'bad_if_match',
      'If-Match must be the ETag of the grant, as GET /v1/grants/{id} answers it (like "3")',
    );
  return Number(match[1]);
}

/** Admin: grants of agents and users to tools. */
export function registerGrantRoutes(app: ServerApp, deps: RouteDeps): void {
  const changed = (tenantId: string) => deps.runtimes.reloadGrants(tenantId);
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/grants',
      summary: 'The grants of this tenant',
      ...secured,
      responses: { 200: jsonOf(z.object({ grants: z.array(GrantSchema) }), 'Grants'), ...AUTH_ERRORS },
    }),
    async (c) => c.json({ grants: await listGrants(deps.db, c.get('principal').tenantId) }, 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/grants',
      summary: 'Grants an agent or user tools (allow and deny patterns with `*`)',
      ...secured,
      request: bodyOf(NewGrant),
      responses: { 201: jsonOf(z.object({ grant: GrantSchema }), 'The grant'), ...AUTH_ERRORS },
    }),
    async (c) => {
      const tenantId = c.get('principal').tenantId;
      const grant = await insertGrant(deps.db, tenantId, c.req.valid('json'));
      await changed(tenantId);
      return c.json({ grant }, 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/grants/{id}',
      summary: 'One grant; its ETag is the version to send in If-Match',
      ...secured,
      request: { params: IdParam },
      responses: { 200: jsonOf(z.object({ grant: GrantSchema }), 'The grant'), ...AUTH_ERRORS, ...missing },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const grant = await getGrant(deps.db, c.get('principal').tenantId, id);
      if (!grant) throw notFound('grant', id);
      c.header('etag', `"${grant.version}"`);
      return c.json({ grant }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'patch',
      path: '/v1/grants/{id}',
      summary:
        "Changes a grant's lists or enabled flag; send `If-Match` with the grant's ETag (its version) so a concurrent change is refused with 409",
      ...secured,
      request: { params: IdParam, ...bodyOf(GrantPatch) },
      responses: {
        200: jsonOf(z.object({ grant: GrantSchema }), 'The grant (ETag: its new version)'),
        ...AUTH_ERRORS,
        ...missing,
        409: jsonOf(ErrorSchema, 'The grant changed since the version in If-Match'),
      },
    }),
    async (c) => {
      const tenantId = c.get('principal').tenantId;
      const { id } = c.req.valid('param');
      const expected = parseIfMatch(c.req.header('if-match'));
      const grant = await updateGrant(deps.db, tenantId, id, c.req.valid('json'), expected);
      if (!grant) throw notFound('grant', id);
      if (grant === 'conflict')
        throw new ApiError(
          409,
          'INVALID_ARGUMENTS',
          'version_conflict',
          `grant "${id}" changed since version ${expected}: GET it again, apply your change to the new version and retry`,
        );
      await changed(tenantId);
      c.header('etag', `"${grant.version}"`);
      return c.json({ grant }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/grants/{id}',
      summary: 'Deletes a grant',
      ...secured,
      request: { params: IdParam },
      responses: { 200: jsonOf(z.object({ deleted: z.string() }), 'Deleted'), ...AUTH_ERRORS, ...missing },
    }),
    async (c) => {
      const tenantId = c.get('principal').tenantId;
      const { id } = c.req.valid('param');
      if (!(await deleteGrant(deps.db, tenantId, id))) throw notFound('grant', id);
      await changed(tenantId);
      return c.json({ deleted: id }, 200);
    },
  );
}
