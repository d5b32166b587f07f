import { type Middleware, type RegisteredTool, fail } from '@toolplane/core';
import { fromCorePrincipal } from '../auth/core-principal.js';
import type { ServerPrincipal } from '../auth/principal.js';
import type { GrantDecision } from './evaluator.js';

/** Answers the grant question for one tool; the tenant runtime binds it to its grants. */
export type DecideGrant = (principal: ServerPrincipal, tool: RegisteredTool) => GrantDecision;

/**
 * The grant gate, outermost in the `gate` phase: it narrows every tool list and refuses every
 * call with the same decision function, so listing and calling cannot disagree.
 */
export function grantMiddleware(decide: DecideGrant): Middleware {
  return {
    name: 'server-grants',
    phase: 'gate',
    filterTools(tools, view) {
      const principal = fromCorePrincipal(view.principal);
      if (!principal) return [];
      return tools.filter((tool) => decide(principal, tool).allowed);
    },
    async handle(call, next) {
      const principal = fromCorePrincipal(call.ctx.principal);
      if (!principal)
        return fail(
          'DENIED',
          'the call has no server principal: call through the HTTP API or /mcp with a key',
        );
      const decision = decide(principal, call.tool);
      if (!decision.allowed)
        return fail(
          'DENIED',
          `${principal.kind} "${principal.id}" has no grant for ${call.tool.name} (${decision.reason}): ask for it with POST /v1/access-requests`,
          { details: { reason: decision.reason } },
        );
      return next(call);
    },
  };
}
