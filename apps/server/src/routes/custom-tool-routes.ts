import { createRoute, z } from '@hono/zod-openapi';
import type { CustomTool } from '../custom-tools/custom-tool.js';
import { CustomToolBody, toCustomToolInput } from '../custom-tools/custom-tool-input.js';
import { deleteCustomTool, listCustomTools, putCustomTool } from '../custom-tools/custom-tool-store.js';
import { notFound } from '../http/api-error.js';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, ResourceName, bodyOf, jsonOf } from '../http/schemas.js';
import type { RouteDeps } from './deps.js';

const CustomToolSchema = z
  .object({
    name: z.string(),
    toolName: z.string().openapi({ description: 'The public name: custom__<name>' }),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
    argv: z.array(z.string()),
    timeoutMs: z.number(),
    cwd: z.string().nullable(),
    envNames: z.array(z.string()),
    scope: z.union([z.literal('global'), z.object({ agent: z.string() })]),
    updatedAt: z.string(),
  })
  .openapi('CustomTool');

function present(tool: CustomTool): z.infer<typeof CustomToolSchema> {
  return {
    name: tool.name,
    toolName: `custom__${tool.name}`,
    description: tool.description,
    parameters: tool.parameters as Record<string, unknown>,
    argv: [...tool.argv],
    timeoutMs: tool.timeoutMs,
    cwd: tool.cwd,
    envNames: Object.keys(tool.env),
    scope: tool.scopeAgent === null ? 'global' : { agent: tool.scopeAgent },
    updatedAt: tool.updatedAt,
  };
}

const secured = { security: [{ bearer: [] }] };
const NameParam = z.object({ name: ResourceName });

/** Admin: shell tools defined at runtime; each change reloads the tenant's tools. */
export function registerCustomToolRoutes(app: ServerApp, deps: RouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/custom-tools',
      summary: 'The custom tools of this tenant (environment names only)',
      ...secured,
      responses: {
        200: jsonOf(z.object({ tools: z.array(CustomToolSchema) }), 'Custom tools'),
        ...AUTH_ERRORS,
      },
    }),
    async (c) =>
      c.json(
        { tools: (await listCustomTools(deps.db, deps.cipher, c.get('principal').tenantId)).map(present) },
        200,
      ),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/v1/custom-tools/{name}',
      summary: 'Creates or replaces a custom tool; it is callable once this answers',
      ...secured,
      request: { params: NameParam, ...bodyOf(CustomToolBody) },
      responses: {
        200: jsonOf(z.object({ tool: CustomToolSchema }), 'Replaced'),
        201: jsonOf(z.object({ tool: CustomToolSchema }), 'Created'),
        ...AUTH_ERRORS,
      },
    }),
    async (c) => {
      const tenantId = c.get('principal').tenantId;
      const input = toCustomToolInput(c.req.valid('param').name, c.req.valid('json'));
      const { tool, created } = await putCustomTool(deps.db, deps.cipher, tenantId, input);
      await deps.runtimes.reloadTools(tenantId);
      return c.json({ tool: present(tool) }, created ? 201 : 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/custom-tools/{name}',
      summary: 'Deletes a custom tool',
      ...secured,
      request: { params: NameParam },
      responses: {
        200: jsonOf(z.object({ deleted: z.string() }), 'Deleted'),
        ...AUTH_ERRORS,
        404: jsonOf(z.object({}), 'No such tool'),
      },
    }),
    async (c) => {
      const tenantId = c.get('principal').tenantId;
      const { name } = c.req.valid('param');
      if (!(await deleteCustomTool(deps.db, tenantId, name))) throw notFound('custom tool', name);
      await deps.runtimes.reloadTools(tenantId);
      return c.json({ deleted: name }, 200);
    },
  );
}
