import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../http/api-error.js';
import type { ServerEnv } from '../http/env.js';
import type { SqlClient } from '../storage/database.js';
import type { PrincipalCache } from './principal-cache.js';
import { resolveAuthorization } from './resolve-key.js';

/**
 * Resolves `Authorization: Bearer <key>` to the key's principal (through the principal cache);
 * 401 with a reason otherwise.
 */
export function authenticate(db: SqlClient, cache: PrincipalCache): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    c.set('principal', await resolveAuthorization(db, cache, c.req.header('authorization')));
    await next();
  };
}

/** Refuses every principal but an admin of the tenant with 403. */
export const adminOnly: MiddlewareHandler<ServerEnv> = async (c, next) => {
  const principal = c.get('principal');
  if (principal.kind !== 'admin')
    throw new ApiError(
      403,
      'DENIED',
      'admin_only',
      `this route is for admin keys; this key is ${principal.kind} "${principal.id}"`,
    );
  await next();
};
