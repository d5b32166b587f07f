import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../http/api-error.js';
import type { ServerEnv } from '../http/env.js';
import type { SqlClient } from '../storage/database.js';
import { hashApiKey, looksLikeApiKey } from './api-key.js';
import { findPrincipalByHash } from './key-store.js';
import type { CachedLookup, PrincipalCache } from './principal-cache.js';

const HOW =
  'send `Authorization: Bearer <key>` with a key from `POST /v1/keys` (the first admin key is printed on first run)';

async function lookUp(db: SqlClient, cache: PrincipalCache, key: string): Promise<CachedLookup | 'unknown'> {
  if (!looksLikeApiKey(key)) return 'unknown';
  const hash = hashApiKey(key);
  const cached = cache.get(hash);
  if (cached !== undefined) return cached;
  const looked = await findPrincipalByHash(db, hash);
  if (looked === 'unknown') return 'unknown';
  cache.set(hash, looked.keyId, looked.found);
  return looked.found;
}

/**
 * Resolves `Authorization: Bearer <key>` to the key's principal (through the principal cache);
 * 401 with a reason otherwise.
 */
export function authenticate(db: SqlClient, cache: PrincipalCache): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (!header) throw new ApiError(401, 'DENIED', 'key_missing', `no API key: ${HOW}`);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match)
      throw new ApiError(
        401,
        'DENIED',
        'key_malformed',
        `the Authorization header is not a bearer key: ${HOW}`,
      );
    const key = match[1] as string;
    const found = await lookUp(db, cache, key);
    if (found === 'unknown')
      throw new ApiError(401, 'DENIED', 'key_invalid', `the API key is not known here: ${HOW}`);
    if (found === 'revoked')
      throw new ApiError(401, 'DENIED', 'key_revoked', 'the API key was revoked: ask an admin for a new one');
    c.set('principal', found);
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
