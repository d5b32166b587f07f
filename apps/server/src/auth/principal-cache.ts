import type { ServerPrincipal } from './principal.js';

/** What a key lookup found: a principal, or a key that was revoked. */
export type CachedLookup = ServerPrincipal | 'revoked';

interface Entry {
  readonly found: CachedLookup;
  readonly keyId: string;
  readonly expiresAt: number;
}

/**
 * Key lookups by the key's sha-256, kept for `ttlMs` (1 s by default) so a request does not
 * wait on the database for its key. Unknown keys are never kept (a new key works at once). A
 * revoke drops the key's entry at once on the instance that made it ({@link forgetKey}) and on
 * the others as the change arrives; the TTL bounds how long a lost notification could matter.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly hashesByKeyId = new Map<string, string>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? 1_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The cached lookup of `hash`, or undefined when absent or expired. */
  get(hash: string): CachedLookup | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.drop(hash, entry.keyId);
      return undefined;
    }
    return entry.found;
  }

  /** Keeps a lookup of the key `keyId` (whose hash is `hash`). */
  set(hash: string, keyId: string, found: CachedLookup): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(hash)) {
      // the oldest entry goes: Map keeps insertion order
      const oldest = this.entries.entries().next().value;
      if (oldest) this.drop(oldest[0], oldest[1].keyId);
    }
    this.entries.set(hash, { found, keyId, expiresAt: this.now() + this.ttlMs });
    this.hashesByKeyId.set(keyId, hash);
  }

  /** Forgets the key `keyId` (revoked): its next request is looked up in the database. */
  forgetKey(keyId: string): void {
    const hash = this.hashesByKeyId.get(keyId);
    if (hash !== undefined) this.drop(hash, keyId);
  }

  /** Forgets every lookup. */
  clear(): void {
    this.entries.clear();
    this.hashesByKeyId.clear();
  }

  private drop(hash: string, keyId: string): void {
    this.entries.delete(hash);
    if (this.hashesByKeyId.get(keyId) === hash) this.hashesByKeyId.delete(keyId);
  }
}
