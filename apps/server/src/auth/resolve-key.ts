import { ApiError } from '../http/api-error.js';
import type { SqlClient } from '../storage/database.js';
import { hashApiKey, looksLikeApiKey } from './api-key.js';
import { findPrincipalByHash } from './key-store.js';
import type { PrincipalCache } from './principal-cache.js';
import type { ServerPrincipal } from './principal.js';

const HOW =
  'send `Authorization: Bearer <key>` with a key from `POST /v1/keys` (the first admin key is printed on first run)';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The principal of an `Authorization` header, or the 401 that refuses it. Lookups are cached
 * by the header as sent, so a key seen within the cache's TTL costs neither a sha-256 nor a
 * query; a revoke drops the key's entries (see {@link PrincipalCache}).
 */
export async function resolveAuthorization(
  db: SqlClient,
  cache: PrincipalCache,
  header: string | undefined,
): Promise<ServerPrincipal> {
  if (!header) throw new ApiError(401, 'DENIED', 'key_missing', `no API key: ${HOW}`);
  let found = cache.get(header);
  if (found === undefined) {
    const match = BEARER.exec(header);
    if (!match)
      throw new ApiError(
        401,
        'DENIED',
        'key_malformed',
        `the Authorization header is not a bearer key: ${HOW}`,
      );
    const key = match[1] as string;
    const looked = looksLikeApiKey(key) ? await findPrincipalByHash(db, hashApiKey(key)) : 'unknown';
    if (looked === 'unknown')
      throw new ApiError(401, 'DENIED', 'key_invalid', `the API key is not known here: ${HOW}`);
    cache.set(header, looked.keyId, looked.found);
    found = looked.found;
  }
  if (found === 'revoked')
    throw new ApiError(401, 'DENIED', 'key_revoked', 'the API key was revoked: ask an admin for a new one');
  return found;
}
