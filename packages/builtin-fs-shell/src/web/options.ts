/** Options of the `web_fetch` tool. */
export interface WebFetchOptions {
  /**
   * Allow private, loopback, link-local, metadata and other non-public addresses (default
   * false). Only for tests and trusted networks.
   */
  readonly allowPrivate?: boolean;
  /** CIDR ranges reachable in addition to public addresses (`10.1.2.0/24`), for a known internal host. */
  readonly allowedRanges?: readonly string[];
  /** Largest response body read, in bytes (default 5 MiB). */
  readonly maxBytes?: number;
  /** Longest text returned to the model, in characters (default 100 000). */
  readonly maxChars?: number;
  /** Per-request timeout (default 30 s). */
  readonly timeoutMs?: number;
  /** Redirects followed at most (default 5). */
  readonly maxRedirects?: number;
  readonly userAgent?: string;
}
