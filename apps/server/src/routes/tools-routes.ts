import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { AUTH_ERRORS, bodyOf, jsonOf } from '../http/schemas.js';
import type { ServerApp } from '../http/env.js';
import { callTool, statusOfResult } from './call-tool.js';
import type { RouteDeps } from './deps.js';

/** The most calls one batch may hold. */
export const MAX_BATCH_CALLS = 32;

const ToolSchema = z
  .object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) })
  .openapi('Tool');
const ResultSchema = z.record(z.string(), z.unknown()).openapi('ToolResult', {
  description:
    'A ToolResult: `{ ok: true, content, structured? }` or `{ ok: false, error: { code, message } }`',
});
/** The body of `POST /v1/tools/{name}/call`. */
export const CallBody = z
  .object({ arguments: z.record(z.string(), z.unknown()).default({}) })
  .openapi('CallRequest');
const BatchBody = z
  .object({
    calls: z
      .array(
        z.object({
          name: z.string().min(1).max(200),
          arguments: z.record(z.string(), z.unknown()).default({}),
        }),
      )
      .min(1)
      .max(MAX_BATCH_CALLS),
  })
  .openapi('BatchRequest');

const listRoute = createRoute({
  method: 'get',
  path: '/v1/tools',
  summary: 'The tools the calling key may see and call (after grants and policy)',
  security: [{ bearer: [] }],
  responses: {
    200: jsonOf(
      z.object({
        tools: z.array(ToolSchema),
        needsLink: z
          .array(z.object({ server: z.string(), start: z.string() }))
          .optional()
          .openapi({
            description:
              'Per-user OAuth servers this user may use but has not linked: their tools answer AUTH_REQUIRED until `start` is done',
          }),
      }),
      'The tools',
    ),
    ...AUTH_ERRORS,
  },
});

const callRoute = createRoute({
  method: 'post',
  path: '/v1/tools/{name}/call',
  summary:
    'Calls a tool; with `Accept: text/event-stream` (or `?stream=1`) progress streams as SSE `progress` events, then one `result`',
  security: [{ bearer: [] }],
  request: { params: z.object({ name: z.string().min(1).max(200) }), ...bodyOf(CallBody) },
  responses: {
    200: jsonOf(z.object({ result: ResultSchema }), 'The call ran (result.ok tells whether it succeeded)'),
    ...AUTH_ERRORS,
    404: jsonOf(z.object({ result: ResultSchema }), 'No such tool for this key'),
    429: jsonOf(z.object({ result: ResultSchema }), 'Rate limited'),
  },
});

const batchRoute = createRoute({
  method: 'post',
  path: '/v1/batch',
  summary: `Runs up to ${MAX_BATCH_CALLS} calls at once; each is checked and answered like a single call`,
  security: [{ bearer: [] }],
  request: bodyOf(BatchBody),
  responses: {
    200: jsonOf(z.object({ results: z.array(ResultSchema) }), 'One result per call, in order'),
    ...AUTH_ERRORS,
  },
});

/** `GET /v1/tools`, `POST /v1/tools/{name}/call`, `POST /v1/batch`. */
export function registerToolRoutes(app: ServerApp, deps: RouteDeps): void {
  app.openapi(listRoute, async (c) => {
    const principal = c.get('principal');
    const runtime = await deps.runtimes.get(principal.tenantId);
    const tools = runtime.listTools(principal).map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema as Record<string, unknown>,
    }));
    const needsLink = await runtime.linksNeeded(principal);
    return c.json({ tools, ...(needsLink.length > 0 ? { needsLink } : {}) }, 200);
  });

  app.openapi(callRoute, async (c) => {
    const principal = c.get('principal');
    const { name } = c.req.valid('param');
    const { arguments: args } = c.req.valid('json');
    const signal = c.req.raw.signal;
    if (/\btext\/event-stream\b/.test(c.req.header('accept') ?? '') || c.req.query('stream') === '1') {
      return streamSSE(c, async (stream) => {
        const result = await callTool(deps, principal, name, args, {
          signal,
          progress: (update) => void stream.writeSSE({ event: 'progress', data: JSON.stringify(update) }),
        });
        await stream.writeSSE({ event: 'result', data: JSON.stringify(result) });
      }) as never;
    }
    const result = await callTool(deps, principal, name, args, { signal });
    return c.json({ result } as never, statusOfResult(result) as 200);
  });

  app.openapi(batchRoute, async (c) => {
    const principal = c.get('principal');
    const { calls } = c.req.valid('json');
    const signal = c.req.raw.signal;
    const results = await Promise.all(
      calls.map((call) => callTool(deps, principal, call.name, call.arguments, { signal })),
    );
    return c.json({ results } as never, 200);
  });
}
