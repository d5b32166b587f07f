import { createRoute, z } from '@hono/zod-openapi';
import { ToolError } from '@toolplane/core';
import { type McpServerConfig, createMcpProvider } from '@toolplane/mcp-provider';
import { ApiError, notFound } from '../http/api-error.js';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, ResourceName, bodyOf, jsonOf } from '../http/schemas.js';
import {
  type McpServerAuth,
  deleteMcpServer,
  describeMcpConfig,
  listMcpServers,
  putMcpServer,
} from '../mcp-servers/mcp-server-store.js';
import { declaredTools } from '../mcp-oauth/declared-tools.js';
import { writeKnownTools } from '../mcp-oauth/known-tools.js';
import { removeServerLinks } from '../mcp-oauth/user-token-store.js';
import type { RouteDeps } from './deps.js';

const StringMap = z.record(z.string(), z.string().max(65536));
const DeclaredTools = z
  .array(
    z.object({
      name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only, at most 64'),
      description: z.string().max(10_000).optional(),
      inputSchema: z.record(z.string(), z.unknown()).optional(),
    }),
  )
  .max(500)
  .openapi({
    description:
      'For `oauth-per-user`: the tools to list before any user linked (the list learned from the server replaces it)',
  });
const McpServerBody = z
  .union([
    z.object({
      type: z.literal('stdio'),
      command: z.string().min(1),
      args: z.array(z.string()).max(256).optional(),
      cwd: z.string().optional(),
      env: StringMap.optional(),
      // accepted here only to be refused with a message: a stdio server has no OAuth
      auth: z.string().optional(),
      tools: z.array(z.unknown()).optional(),
      toolsAllowed: z.array(z.string()).optional(),
      toolsDenied: z.array(z.string()).optional(),
    }),
    z.object({
      type: z.enum(['http', 'sse', 'websocket']).optional(),
      url: z.string().url(),
      headers: StringMap.optional(),
      auth: z.enum(['none', 'oauth-per-user']).optional().openapi({
        description: "`oauth-per-user`: each user links their own account; calls use that user's token",
      }),
      tools: DeclaredTools.optional(),
      toolsAllowed: z.array(z.string()).optional(),
      toolsDenied: z.array(z.string()).optional(),
    }),
  ])
  .openapi('McpServerInput');
const McpServerSchema = z
  .object({ name: z.string(), config: z.record(z.string(), z.unknown()), updatedAt: z.string() })
  .openapi('McpServer');
const secured = { security: [{ bearer: [] }] };
const NameParam = z.object({ name: ResourceName });

/** Admin: MCP servers registered at runtime; each change reloads the tenant's tools. */
export function registerMcpServerRoutes(app: ServerApp, deps: RouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/mcp-servers',
      summary: 'The MCP servers of this tenant (env and header names only)',
      ...secured,
      responses: { 200: jsonOf(z.object({ servers: z.array(McpServerSchema) }), 'Servers'), ...AUTH_ERRORS },
    }),
    async (c) => {
      const servers = await listMcpServers(deps.db, deps.cipher, c.get('principal').tenantId);
      return c.json(
        {
          servers: servers.map((server) => ({
            name: server.name,
            config: { ...describeMcpConfig(server.config), auth: server.auth },
            updatedAt: server.updatedAt,
          })),
        },
        200,
      );
    },
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/v1/mcp-servers/{name}',
      summary: 'Registers or replaces an MCP server; its tools are `<name>__<tool>`',
      ...secured,
      request: { params: NameParam, ...bodyOf(McpServerBody) },
      responses: {
        200: jsonOf(z.object({ name: z.string(), created: z.boolean() }), 'Registered'),
        ...AUTH_ERRORS,
      },
    }),
    async (c) => {
      const tenantId = c.get('principal').tenantId;
      const { name } = c.req.valid('param');
      const { auth: requested, tools: declared, ...rest } = c.req.valid('json');
      const config = rest as McpServerConfig;
      const auth = checkAuth(config, requested);
      const knownTools = declared === undefined ? undefined : declaredTools(name, auth, declared);
      try {
        // the provider checks the config the way it will run it; nothing starts here
        void createMcpProvider(name, config).close?.();
      } catch (error) {
        throw new ApiError(
          400,
          'INVALID_ARGUMENTS',
          'invalid_mcp_server',
          ToolError.isInstance(error) ? error.message : String(error),
        );
      }
      const created = await putMcpServer(deps.db, deps.cipher, tenantId, name, config, auth);
      if (knownTools) await writeKnownTools(deps.db, tenantId, name, knownTools);
      await deps.perUserMcp.closeServer(tenantId, name);
      await deps.runtimes.reloadTools(tenantId);
      return c.json({ name, created }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/mcp-servers/{name}',
      summary: 'Removes an MCP server (its process stops)',
      ...secured,
      request: { params: NameParam },
      responses: {
        200: jsonOf(z.object({ deleted: z.string() }), 'Deleted'),
        ...AUTH_ERRORS,
        404: jsonOf(z.object({}), 'No such server'),
      },
    }),
    async (c) => {
      const tenantId = c.get('principal').tenantId;
      const { name } = c.req.valid('param');
      if (!(await deleteMcpServer(deps.db, tenantId, name))) throw notFound('MCP server', name);
      await removeServerLinks(deps.db, tenantId, name);
      await deps.perUserMcp.closeServer(tenantId, name);
      await deps.runtimes.reloadTools(tenantId);
      return c.json({ deleted: name }, 200);
    },
  );
}

/** The server's `auth`; per-user OAuth only for HTTP and SSE servers that send no Authorization header. */
function checkAuth(config: McpServerConfig, requested: string | undefined): McpServerAuth {
  if (requested === undefined || requested === 'none') return 'none';
  const refuse = (why: string): never => {
    throw new ApiError(400, 'INVALID_ARGUMENTS', 'invalid_mcp_server', `"auth": "${requested}" ${why}`);
  };
  if (requested !== 'oauth-per-user') refuse('is not known: use "none" or "oauth-per-user"');
  if (config.type === 'stdio') refuse('needs a remote server: a stdio server has no OAuth');
  if (config.type === 'websocket') refuse('needs an http or sse server: websocket servers do not use OAuth');
  const headers = 'headers' in config ? Object.keys(config.headers ?? {}) : [];
  if (headers.some((header) => header.toLowerCase() === 'authorization'))
    refuse('leaves the Authorization header to each user\'s token: remove it from "headers"');
  return 'oauth-per-user';
}
