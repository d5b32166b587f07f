import { createRoute, z } from '@hono/zod-openapi';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, jsonOf } from '../http/schemas.js';
import { listMcpServers } from '../mcp-servers/mcp-server-store.js';
import { createUserTokenStore } from '../mcp-oauth/user-token-store.js';
import type { RouteDeps } from './deps.js';
import { userOf } from './mcp-oauth-routes.js';

const LinkSchema = z
  .object({
    server: z.string(),
    linked: z.boolean(),
  })
  .openapi('AccountLink');

/** A user's view of the tenant's per-user OAuth servers: which of them they have linked. */
export function registerOAuthLinksRoute(app: ServerApp, deps: RouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/oauth/links',
      summary:
        "The tenant's MCP servers registered with `auth: oauth-per-user` and whether the calling user has linked each",
      security: [{ bearer: [] }],
      responses: {
        200: jsonOf(z.object({ links: z.array(LinkSchema) }), 'One entry per per-user server, by name'),
        ...AUTH_ERRORS,
      },
    }),
    async (c) => {
      const owner = userOf(c.get('principal'));
      const servers = (await listMcpServers(deps.db, deps.cipher, owner.tenantId)).filter(
        (server) => server.auth === 'oauth-per-user',
      );
      const store = createUserTokenStore(deps.db, deps.cipher, owner);
      const links = [];
      for (const server of servers) {
        const record = await store.read(server.name);
        links.push({ server: server.name, linked: record?.tokens !== undefined });
      }
      return c.json({ links }, 200);
    },
  );
}
