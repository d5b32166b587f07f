import { createRoute, z } from '@hono/zod-openapi';
import { ToolError, errorMessage } from '@toolplane/core';
import { type RestToolConfig, createRestProvider, importOpenApi } from '@toolplane/rest-openapi';
import { ApiError, notFound } from '../http/api-error.js';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, ResourceName, bodyOf, jsonOf } from '../http/schemas.js';
import {
  deleteRestProvider,
  listRestProviders,
  putRestProvider,
} from '../rest-providers/rest-provider-store.js';
import type { RouteDeps } from './deps.js';

const RestProviderBody = z
  .object({
    openapi: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'An OpenAPI 3.x or Swagger 2.0 document: one tool per operation' }),
    baseUrl: z
      .string()
      .url()
      .optional()
      .openapi({ description: "Where the API is, when the document's servers do not say" }),
    tools: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: 'REST tool configs by name (@toolplane/rest-openapi RestToolConfig)' }),
    env: z
      .record(z.string(), z.string().max(65536))
      .default({})
      .openapi({ description: 'Values of the $VAR templates in headers and auth; stored sealed' }),
  })
  .openapi('RestProviderInput');
const RestProviderSchema = z
  .object({
    name: z.string(),
    tools: z.array(z.string()),
    envNames: z.array(z.string()),
    updatedAt: z.string(),
  })
  .openapi('RestProvider');
const secured = { security: [{ bearer: [] }] };
const NameParam = z.object({ name: ResourceName });
const invalid = (message: string): ApiError =>
  new ApiError(400, 'INVALID_ARGUMENTS', 'invalid_rest_provider', message);

/** Admin: REST endpoints and OpenAPI documents as providers; each change reloads the tenant's tools. */
export function registerRestProviderRoutes(app: ServerApp, deps: RouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/rest-providers',
      summary: 'The REST providers of this tenant (tool and env names only)',
      ...secured,
      responses: {
        200: jsonOf(z.object({ providers: z.array(RestProviderSchema) }), 'Providers'),
        ...AUTH_ERRORS,
      },
    }),
    async (c) => {
      const providers = await listRestProviders(deps.db, deps.cipher, c.get('principal').tenantId);
      return c.json(
        {
          providers: providers.map((p) => ({
            name: p.name,
            tools: Object.keys(p.tools),
            envNames: Object.keys(p.env),
            updatedAt: p.updatedAt,
          })),
        },
        200,
      );
    },
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/v1/rest-providers/{name}',
      summary:
        'Registers or replaces a REST provider from an OpenAPI document or tool configs; its tools are `<name>__<tool>`',
      ...secured,
      request: { params: NameParam, ...bodyOf(RestProviderBody) },
      responses: {
        200: jsonOf(
          z.object({ provider: RestProviderSchema, created: z.boolean(), warnings: z.array(z.string()) }),
          'Registered',
        ),
        ...AUTH_ERRORS,
      },
    }),
    async (c) => {
      const tenantId = c.get('principal').tenantId;
      const { name } = c.req.valid('param');
      const body = c.req.valid('json');
      if ((body.openapi === undefined) === (body.tools === undefined))
        throw invalid('send exactly one of "openapi" (a document) or "tools" (tool configs)');
      let tools = (body.tools ?? {}) as unknown as Record<string, RestToolConfig>;
      let warnings: string[] = [];
      if (body.openapi) {
        try {
          const imported = await importOpenApi(
            { document: body.openapi, ...(body.baseUrl ? { baseUrl: body.baseUrl } : {}) },
            { namespace: name },
          );
          tools = imported.tools;
          warnings = imported.warnings;
        } catch (error) {
          throw invalid(`the OpenAPI document does not import: ${errorMessage(error)}`);
        }
      }
      if (Object.keys(tools).length === 0)
        throw invalid('the provider has no tools: the document has no operations, or "tools" is empty');
      try {
        // the provider checks the configs the way it will run them
        await createRestProvider({ namespace: name, tools, env: body.env }).close?.();
      } catch (error) {
        throw invalid(ToolError.isInstance(error) ? error.message : errorMessage(error));
      }
      const created = await putRestProvider(deps.db, deps.cipher, tenantId, { name, tools, env: body.env });
      await deps.runtimes.reloadTools(tenantId);
      return c.json(
        {
          provider: {
            name,
            tools: Object.keys(tools),
            envNames: Object.keys(body.env),
            updatedAt: new Date().toISOString(),
          },
          created,
          warnings,
        },
        200,
      );
    },
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/rest-providers/{name}',
      summary: 'Removes a REST provider',
      ...secured,
      request: { params: NameParam },
      responses: {
        200: jsonOf(z.object({ deleted: z.string() }), 'Deleted'),
        ...AUTH_ERRORS,
        404: jsonOf(z.object({}), 'No such provider'),
      },
    }),
    async (c) => {
      const tenantId = c.get('principal').tenantId;
      const { name } = c.req.valid('param');
      if (!(await deleteRestProvider(deps.db, tenantId, name))) throw notFound('REST provider', name);
      await deps.runtimes.reloadTools(tenantId);
      return c.json({ deleted: name }, 200);
    },
  );
}
