import type { Principal } from '@toolplane/core';
import type { PrincipalKind, ServerPrincipal } from './principal.js';

/**
 * The server principal as the pipeline carries it: `channel` holds the kind, `agentId` or
 * `userId` the id (admins travel as a user with channel `admin`), `tenantId` the tenant.
 */
export function toCorePrincipal(principal: ServerPrincipal): Principal {
  return principal.kind === 'agent'
    ? { tenantId: principal.tenantId, agentId: principal.id, channel: 'agent' }
    : { tenantId: principal.tenantId, userId: principal.id, channel: principal.kind };
}

/** The inverse of {@link toCorePrincipal}; `undefined` for a principal the server did not make. */
export function fromCorePrincipal(principal: Principal): ServerPrincipal | undefined {
  const kind = principal.channel as PrincipalKind | undefined;
  const id = kind === 'agent' ? principal.agentId : principal.userId;
  if ((kind !== 'admin' && kind !== 'agent' && kind !== 'user') || !id || !principal.tenantId)
    return undefined;
  return { keyId: '', tenantId: principal.tenantId, kind, id };
}
