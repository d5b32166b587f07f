import { createRoute, z } from '@hono/zod-openapi';
import type { ServerPrincipal } from '../auth/principal.js';
import { ConsoleReturns } from '../console/console-returns.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, ErrorSchema, ResourceName, jsonOf } from '../http/schemas.js';
import { type McpServerRecord, listMcpServers } from '../mcp-servers/mcp-server-store.js';
import type { RouteDeps } from './deps.js';

/** The callback path, the one `/v1` route that takes no key: the browser comes back here. */
export const OAUTH_CALLBACK_PATH = '/v1/oauth/callback';

/** Paths under `/v1/mcp-servers` that users (not only admins) use. */
export const USER_MCP_SERVER_PATH = /^\/v1\/mcp-servers\/[^/]+\/oauth(\/start)?$/;

const secured = { security: [{ bearer: [] }] };
const NameParam = z.object({ name: ResourceName });
const NO_SERVER = jsonOf(ErrorSchema, 'No such MCP server in this tenant');

/** The tenant and user of a user key; any other key is refused with `user_only`. */
export function userOf(principal: ServerPrincipal): { tenantId: string; userId: string } {
  if (principal.kind !== 'user')
    throw new ApiError(
      403,
      'DENIED',
      'user_only',
      `this route links a user's own account; this key is ${principal.kind} "${principal.id}": use a user key`,
    );
  return { tenantId: principal.tenantId, userId: principal.id };
}

async function perUserServer(deps: RouteDeps, tenantId: string, name: string): Promise<McpServerRecord> {
  const record = (await listMcpServers(deps.db, deps.cipher, tenantId)).find(
    (server) => server.name === name,
  );
  if (!record) throw notFound('MCP server', name);
  if (record.auth !== 'oauth-per-user')
    throw new ApiError(
      400,
      'INVALID_ARGUMENTS',
      'oauth_not_enabled',
      `MCP server "${name}" is not registered with "auth": "oauth-per-user": an admin sets it with PUT /v1/mcp-servers/${name}`,
    );
  return record;
}

/** Users link and unlink their own accounts on per-user OAuth servers; the browser's callback. */
export function registerMcpOAuthRoutes(app: ServerApp, deps: RouteDeps): void {
  const consoleReturns = new ConsoleReturns();
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/mcp-servers/{name}/oauth/start',
      summary: "Starts the calling user's OAuth login to a per-user server; open the answered URL",
      ...secured,
      request: {
        params: NameParam,
        query: z.object({
          return: z.enum(['console']).optional().openapi({
            description: 'With `console`, the callback sends the browser back to `/console?linked=<name>`',
          }),
        }),
      },
      responses: {
        200: jsonOf(z.object({ authorizationUrl: z.string() }), 'The URL the user opens in a browser'),
        ...AUTH_ERRORS,
        404: NO_SERVER,
        409: jsonOf(ErrorSchema, 'The server asks for no token'),
        502: jsonOf(ErrorSchema, 'Discovery or registration failed'),
      },
    }),
    async (c) => {
      const owner = userOf(c.get('principal'));
      const record = await perUserServer(deps, owner.tenantId, c.req.valid('param').name);
      const url = await deps.perUserMcp.start(owner, record);
      const state = url.searchParams.get('state');
      if (c.req.valid('query').return === 'console' && state) consoleReturns.add(state);
      return c.json({ authorizationUrl: url.href }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/mcp-servers/{name}/oauth',
      summary: "Unlinks the calling user's account: forgets the tokens, closes the connection",
      ...secured,
      request: { params: NameParam },
      responses: {
        200: jsonOf(z.object({ unlinked: z.boolean() }), 'Whether there was a link'),
        ...AUTH_ERRORS,
        404: NO_SERVER,
      },
    }),
    async (c) => {
      const owner = userOf(c.get('principal'));
      const { name } = c.req.valid('param');
      await perUserServer(deps, owner.tenantId, name);
      return c.json({ unlinked: await deps.perUserMcp.unlink(owner, name) }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: OAUTH_CALLBACK_PATH,
      summary: 'Where the authorization server sends the browser back (no key: the state binds it)',
      request: {
        query: z.object({
          state: z.string().max(512).optional(),
          code: z.string().max(4096).optional(),
          error: z.string().max(512).optional(),
          error_description: z.string().max(4096).optional(),
        }),
      },
      responses: {
        200: jsonOf(z.object({ linked: z.string(), userId: z.string() }), 'The account is linked'),
        303: { description: 'A login begun from the console: back to `/console?linked=<name>`' },
        400: jsonOf(ErrorSchema, 'Unknown, used or expired state; or the login failed'),
      },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const fromConsole = consoleReturns.take(query.state);
      let linked: { server: string; userId: string };
      try {
        linked = await deps.perUserMcp.finish(query.state, {
          ...(query.state !== undefined ? { state: query.state } : {}),
          ...(query.code !== undefined ? { code: query.code } : {}),
          ...(query.error !== undefined ? { error: query.error } : {}),
          ...(query.error_description !== undefined ? { errorDescription: query.error_description } : {}),
        });
      } catch (error) {
        if (!fromConsole || !(error instanceof ApiError)) throw error;
        return c.redirect(
          `/console?${new URLSearchParams({ link_failed: error.message.slice(0, 500) })}`,
          303,
        );
      }
      if (fromConsole) return c.redirect(`/console?${new URLSearchParams({ linked: linked.server })}`, 303);
      return c.json({ linked: linked.server, userId: linked.userId }, 200);
    },
  );
}
