import type { ServerPrincipal } from './principal.js';

/** What a key lookup found: a principal, or a key that was revoked. */
export type CachedLookup = ServerPrincipal | 'revoked';

interface Entry {
  readonly found: CachedLookup;
  readonly keyId: string;
  readonly expiresAt: number;
}

/**
 * Key lookups by the `Authorization` header that carried the key, kept for `ttlMs` (1 s by
 * default) so a request neither hashes its key nor waits on the database for it. Unknown keys are never kept (a new key works at once). A
 * revoke drops the key's entry at once on the instance that made it ({@link forgetKey}) and on
 * the others as the change arrives; the TTL bounds how long a lost notification could matter.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly headersByKeyId = new Map<string, Set<string>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? 1_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The cached lookup of `header`, or undefined when absent or expired. */
  get(header: string): CachedLookup | undefined {
    const entry = this.entries.get(header);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.drop(header, entry.keyId);
      return undefined;
    }
    return entry.found;
  }

  /** Keeps a lookup of the key `keyId`, sent as `header`. */
  set(header: string, keyId: string, found: CachedLookup): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(header)) {
      // the oldest entry goes: Map keeps insertion order
      const oldest = this.entries.entries().next().value;
      if (oldest) this.drop(oldest[0], oldest[1].keyId);
    }
    this.entries.set(header, { found, keyId, expiresAt: this.now() + this.ttlMs });
    let headers = this.headersByKeyId.get(keyId);
    if (!headers) {
      headers = new Set();
      this.headersByKeyId.set(keyId, headers);
    }
    headers.add(header);
  }

  /** Forgets the key `keyId` (revoked): its next request is looked up in the database. */
  forgetKey(keyId: string): void {
    for (const header of this.headersByKeyId.get(keyId) ?? []) this.entries.delete(header);
    this.headersByKeyId.delete(keyId);
  }

  /** Forgets every lookup. */
  clear(): void {
    this.entries.clear();
    this.headersByKeyId.clear();
  }

  private drop(header: string, keyId: string): void {
    this.entries.delete(header);
    const headers = this.headersByKeyId.get(keyId);
    headers?.delete(header);
    if (headers?.size === 0) this.headersByKeyId.delete(keyId);
  }
}
