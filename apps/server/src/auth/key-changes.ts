import type { Database } from '../storage/database.js';
import { isResync } from '../storage/resync.js';
import type { PrincipalCache } from './principal-cache.js';

/** The channel on which instances tell each other that a key was revoked. */
export const KEY_CHANNEL = 'toolplane_keys';

/** Tells every instance on the database to drop its cached lookup of the key `keyId`. */
export async function announceKeyRevoked(db: Database, keyId: string): Promise<void> {
  await db.notify(KEY_CHANNEL, JSON.stringify({ revoked: keyId }));
}

/** Drops cached lookups of keys other instances revoke, as their notifications arrive. */
export async function followKeyChanges(db: Database, cache: PrincipalCache): Promise<void> {
  await db.listen(KEY_CHANNEL, (payload) => {
    if (isResync(payload)) {
      // revokes may have been missed while the listening connection was down
      cache.clear();
      return;
    }
    try {
      const change = JSON.parse(payload) as { revoked?: unknown };
      if (typeof change.revoked === 'string') cache.forgetKey(change.revoked);
    } catch {
      // a payload this version cannot read: the TTL bounds how long the entry lives
    }
  });
}
