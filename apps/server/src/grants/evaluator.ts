import type { ServerPrincipal } from '../auth/principal.js';
import type { Grant } from './grant.js';
import { matchesToolPattern } from './pattern.js';

/** What the evaluator knows of a tool beyond its name. */
export interface ToolOwnership {
  /** A custom tool scoped to one agent: no other agent or user sees it. */
  readonly scopeAgent?: string;
}

/** Why a principal may or may not use a tool. */
export interface GrantDecision {
  readonly allowed: boolean;
  readonly reason: 'admin' | 'granted' | 'denied_by_grant' | 'not_granted' | 'other_agent_scope';
}

/**
 * The one answer to "may this principal list and call this tool": every path (the tool list,
 * a call, a batch entry, the MCP endpoint) asks it, so they cannot disagree. Admins use every
 * tool of their tenant; agents and users what their enabled grants allow and none denies.
 */
export function evaluateGrant(
  principal: ServerPrincipal,
  toolName: string,
  grants: readonly Grant[],
  ownership: ToolOwnership = {},
): GrantDecision {
  if (principal.kind === 'admin') return { allowed: true, reason: 'admin' };
  if (
    ownership.scopeAgent !== undefined &&
    !(principal.kind === 'agent' && principal.id === ownership.scopeAgent)
  )
    return { allowed: false, reason: 'other_agent_scope' };
  let allowed = false;
  for (const grant of grants) {
    if (!grant.enabled || grant.tenantId !== principal.tenantId) continue;
    if (grant.principalKind !== principal.kind || grant.principalId !== principal.id) continue;
    if (grant.deny.some((pattern) => matchesToolPattern(pattern, toolName)))
      return { allowed: false, reason: 'denied_by_grant' };
    if (grant.allow.some((pattern) => matchesToolPattern(pattern, toolName))) allowed = true;
  }
  return allowed ? { allowed: true, reason: 'granted' } : { allowed: false, reason: 'not_granted' };
}
