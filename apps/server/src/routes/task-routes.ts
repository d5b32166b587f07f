import { createRoute, z } from '@hono/zod-openapi';
import type { ServerPrincipal } from '../auth/principal.js';
import { ApiError } from '../http/api-error.js';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, ErrorSchema, bodyOf, jsonOf } from '../http/schemas.js';
import type { TaskView, TenantTasks } from '../subagents/tenant-tasks.js';
import type { RouteDeps } from './deps.js';

const secured = { security: [{ bearer: [] }] };
const IdParam = z.object({ id: z.string().min(1).max(200) });

const TaskSchema = z
  .object({
    id: z.string(),
    agent: z.string(),
    label: z.string().optional(),
    task: z.string(),
    state: z.enum(['spawning', 'running', 'completed', 'failed', 'cancelled']),
    depth: z.number().int(),
    background: z.boolean(),
    createdAt: z.string(),
    endedAt: z.string().optional(),
    iterations: z.number().int(),
    usage: z.record(z.string(), z.number()),
    steeredFrom: z.string().optional(),
    owner: z.object({ kind: z.string(), id: z.string() }).optional(),
    report: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.string(), message: z.string() }).passthrough().optional(),
  })
  .openapi('SubagentTask');
const SteerBody = z.object({ message: z.string().min(1).max(100_000) }).openapi('SubagentSteer');
const NO_TASK = jsonOf(ErrorSchema, 'No such task for this key');
const FINISHED = jsonOf(ErrorSchema, 'The task has already ended');

function toJson(view: TaskView) {
  return {
    id: view.id,
    agent: view.agent,
    ...(view.label ? { label: view.label } : {}),
    task: view.task,
    state: view.state,
    depth: view.depth,
    background: view.background,
    createdAt: new Date(view.createdAt).toISOString(),
    ...(view.endedAt !== undefined ? { endedAt: new Date(view.endedAt).toISOString() } : {}),
    iterations: view.iterations,
    usage: { ...view.usage },
    ...(view.steeredFrom ? { steeredFrom: view.steeredFrom } : {}),
    ...(view.owner ? { owner: { kind: view.owner.kind, id: view.owner.id } } : {}),
    ...(view.report ? { report: { ...view.report } } : {}),
    ...(view.error ? { error: { ...view.error } } : {}),
  };
}

function noTask(id: string): ApiError {
  return new ApiError(
    404,
    'INVALID_ARGUMENTS',
    'task_not_found',
    `no subagent task "${id.slice(0, 200)}" for this key on this instance: GET /v1/tasks lists yours`,
  );
}

function finished(view: TaskView, action: string): ApiError {
  return new ApiError(
    409,
    'INVALID_ARGUMENTS',
    'task_finished',
    `subagent task "${view.id}" has already ended (${view.state}): there is nothing to ${action}; start a new one with subagents__spawn`,
  );
}

/** The task, when this key may see it; 404 otherwise (another principal's task looks unknown). */
function taskOf(
  deps: RouteDeps,
  principal: ServerPrincipal,
  id: string,
): { tasks: TenantTasks; view: TaskView } {
  const tasks = deps.subagents?.existing(principal.tenantId);
  const view = tasks?.get(principal, id);
  if (!tasks || !view) throw noTask(id);
  return { tasks, view };
}

const running = (view: TaskView): boolean => view.state === 'running' || view.state === 'spawning';

/** Subagent tasks: the child agents a principal's calls started, listed, cancelled and steered. */
export function registerTaskRoutes(app: ServerApp, deps: RouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/tasks',
      summary: "The subagent tasks this key's calls started on this instance (admin: the tenant's)",
      ...secured,
      responses: {
        200: jsonOf(z.object({ tasks: z.array(TaskSchema) }), 'Tasks, oldest first'),
        ...AUTH_ERRORS,
      },
    }),
    (c) => {
      const principal = c.get('principal');
      const views = deps.subagents?.existing(principal.tenantId)?.list(principal) ?? [];
      return c.json({ tasks: views.map(toJson) } as never, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/tasks/{id}',
      summary: 'One subagent task: its state, usage and report',
      ...secured,
      request: { params: IdParam },
      responses: { 200: jsonOf(z.object({ task: TaskSchema }), 'The task'), ...AUTH_ERRORS, 404: NO_TASK },
    }),
    (c) => {
      const { view } = taskOf(deps, c.get('principal'), c.req.valid('param').id);
      return c.json({ task: toJson(view) } as never, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/tasks/{id}/cancel',
      summary: 'Cancels a running subagent task and answers once it has stopped',
      ...secured,
      request: { params: IdParam },
      responses: {
        200: jsonOf(z.object({ task: TaskSchema }), 'The stopped task'),
        ...AUTH_ERRORS,
        404: NO_TASK,
        409: FINISHED,
      },
    }),
    async (c) => {
      const principal = c.get('principal');
      const { id } = c.req.valid('param');
      const { tasks, view } = taskOf(deps, principal, id);
      if (!running(view)) throw finished(view, 'cancel');
      const cancelled = await tasks.cancel(
        id,
        `cancelled over the API by ${principal.kind} "${principal.id}"`,
      );
      const after = tasks.get(principal, id) ?? view;
      if (!cancelled) throw finished(after, 'cancel');
      return c.json({ task: toJson(after) } as never, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/tasks/{id}/steer',
      summary: 'Redirects a running task: cancels it and starts it again with the message, as a new task',
      ...secured,
      request: { params: IdParam, ...bodyOf(SteerBody) },
      responses: {
        200: jsonOf(z.object({ task: TaskSchema, replaced: z.string() }), 'The new task'),
        ...AUTH_ERRORS,
        404: NO_TASK,
        409: FINISHED,
      },
    }),
    async (c) => {
      const principal = c.get('principal');
      const { id } = c.req.valid('param');
      const { tasks, view } = taskOf(deps, principal, id);
      if (!running(view)) throw finished(view, 'steer');
      const next = await tasks.steer(id, c.req.valid('json').message);
      const started = next ? tasks.get(principal, next) : undefined;
      if (!started) throw finished(view, 'steer');
      return c.json({ task: toJson(started), replaced: id } as never, 200);
    },
  );
}
