/** One connection the allow-list proxy refused. */
export interface NetworkRefusal {
  /** The host the command asked for. */
  readonly host: string;
  readonly port: number;
  /** Why: not on the allow-list, or it resolved to a private, loopback or metadata address. */
  readonly reason: 'not-allowed' | 'address-denied' | 'unresolvable' | 'bad-request';
  /** The address that was denied, for `address-denied`. */
  readonly address?: string;
}

/** The opt-in network of a sandbox: only these hosts, through a proxy on the host. */
export interface NetworkAllowList {
  /** Host names (`registry.npmjs.org`) and patterns (`*.github.com`: any subdomain, not the apex). */
  readonly allow: readonly string[];
  /** Ports a command may connect to (default 80 and 443). */
  readonly ports?: readonly number[];
  /**
   * Address ranges (CIDR) a listed name may resolve to beyond public unicast ones: a private
   * mirror (`10.1.2.0/24`), or `127.0.0.0/8` in a test. Empty by default.
   */
  readonly allowedRanges?: readonly string[];
  /** Called for each refused connection (they are also noted in the command's result). */
  readonly onRefused?: (refusal: NetworkRefusal) => void;
}
