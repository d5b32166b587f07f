import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { InboxEvent } from '../approvals/approval-inbox.js';
import type { ServerApp } from '../http/env.js';
import { AUTH_ERRORS, ErrorSchema, bodyOf, jsonOf } from '../http/schemas.js';
import type { RouteDeps } from './deps.js';

const ApprovalSchema = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    callId: z.string(),
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    argumentsHash: z.string(),
    risk: z.string(),
    reason: z.string(),
    command: z.string().optional(),
    suggestedRule: z.string().optional(),
    principal: z.object({ kind: z.string(), id: z.string() }),
    createdAt: z.string(),
    expiresAt: z.string(),
  })
  .openapi('PendingApproval');
const AnswerBody = z
  .object({
    decision: z.enum(['allow-once', 'allow-always', 'deny']),
    callId: z.string().min(1).max(200),
    tool: z.string().min(1).max(200),
    argumentsHash: z.string().regex(/^[0-9a-f]{64}$/, 'the argumentsHash of the pending approval'),
  })
  .openapi('ApprovalAnswer');
const secured = { security: [{ bearer: [] }] };

/** Admin: the approvals inbox for the policy's `ask` decisions. */
export function registerApprovalRoutes(app: ServerApp, deps: RouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/approvals',
      summary: 'Calls waiting for approval in this tenant (on this instance), oldest first',
      ...secured,
      responses: {
        200: jsonOf(z.object({ approvals: z.array(ApprovalSchema) }), 'Pending approvals'),
        ...AUTH_ERRORS,
      },
    }),
    (c) => c.json({ approvals: deps.approvals.list(c.get('principal').tenantId) } as never, 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/approvals/stream',
      summary:
        'SSE: `approval-requested` for each pending and each new approval, `approval-settled` when one is answered or expires',
      ...secured,
      responses: {
        200: { description: 'An event stream', content: { 'text/event-stream': { schema: z.string() } } },
        ...AUTH_ERRORS,
      },
    }),
    (c) => {
      const tenantId = c.get('principal').tenantId;
      return streamSSE(c, async (stream) => {
        const queue: InboxEvent[] = deps.approvals
          .list(tenantId)
          .map((approval) => ({ type: 'approval-requested', approval }));
        let wake: (() => void) | undefined;
        const unsubscribe = deps.approvals.subscribe((event) => {
          const eventTenant = event.type === 'approval-requested' ? event.approval.tenantId : event.tenantId;
          if (eventTenant !== tenantId) return;
          queue.push(event);
          wake?.();
        });
        stream.onAbort(() => wake?.());
        try {
          while (!stream.aborted && !stream.closed && !deps.stopping()) {
            const event = queue.shift();
            if (event) {
              await stream.writeSSE({
                event: event.type,
                data: JSON.stringify(event.type === 'approval-requested' ? event.approval : event),
              });
              continue;
            }
            // a comment every 15 s keeps proxies from closing an idle stream
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, 15_000);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = undefined;
            if (queue.length === 0 && !stream.aborted) await stream.write(': keep-alive\n\n');
          }
        } finally {
          unsubscribe();
        }
      }) as never;
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/approvals/{id}',
      summary:
        'Answers one pending approval: allow-once, allow-always or deny; the body must name its call (callId, tool, argumentsHash)',
      ...secured,
      request: { params: z.object({ id: z.string().max(200) }), ...bodyOf(AnswerBody) },
      responses: {
        200: jsonOf(z.object({ approval: ApprovalSchema, decision: z.string() }), 'Answered'),
        ...AUTH_ERRORS,
        404: jsonOf(ErrorSchema, 'No such pending approval (answered or expired)'),
        409: jsonOf(ErrorSchema, 'The answer names another call'),
      },
    }),
    (c) => {
      const answer = c.req.valid('json');
      const approval = deps.approvals.answer(c.get('principal').tenantId, c.req.valid('param').id, answer);
      return c.json({ approval, decision: answer.decision } as never, 200);
    },
  );
}
