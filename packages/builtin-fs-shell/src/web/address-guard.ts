import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Thrown (inside undici) when a connection would reach a refused address. */
export class AddressDeniedError extends Error {
  readonly code = 'TOOLPLANE_ADDRESS_DENIED';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(
      `${host} resolves to ${address} (${range}), a non-public address; web_fetch only reaches public hosts`,
    );
    this.name = 'AddressDeniedError';
  }
}

/**
 * The range of an IP address (ipaddr.js names: `unicast`, `private`, `loopback`,
 * `linkLocal`, `uniqueLocal`, `carrierGradeNat`, `unspecified`, `multicast`, `6to4`...).
 * IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function addressRange(address: string): string {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return 'invalid';
  return ipaddr.process(bare).range();
}

/** True when `address` is public unicast. */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/** Decides whether a connection to an address may be made. */
export type AddressPolicy = (address: string) => boolean;

/**
 * Public unicast addresses, plus the given CIDR ranges (`10.1.2.0/24`, `fd12::/16`). Throws on
 * a malformed range.
 */
export function createAddressPolicy(allowedRanges: readonly string[] = []): AddressPolicy {
  const ranges = allowedRanges.map((range) => {
    try {
      return ipaddr.parseCIDR(range);
    } catch {
      throw new Error(`webFetch.allowedRanges: "${range}" is not a CIDR range such as 10.0.0.0/8`);
    }
  });
  return (address) => {
    if (isPublicAddress(address)) return true;
    const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
    if (!ipaddr.isValid(bare)) return false;
    const parsed = ipaddr.process(bare);
    return ranges.some(([network, bits]) => parsed.kind() === network.kind() && parsed.match(network, bits));
  };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `net.connect` that resolves as usual and refuses the connection when any
 * resolved address is not public, so a DNS name that points inward is caught at connect time.
 */
export function createGuardedLookup(
  allowed: AddressPolicy,
): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '');
        return;
      }
      const list = addresses as LookupAddress[];
      for (const entry of list) {
        if (!allowed(entry.address)) {
          callback(
            new AddressDeniedError(
              hostname,
              entry.address,
              addressRange(entry.address),
            ) as NodeJS.ErrnoException,
            '',
          );
          return;
        }
      }
      if (options.all) callback(null, list);
      else {
        const first = list[0];
        if (!first)
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        else callback(null, first.address, first.family);
      }
    });
  };
}

/** Checks a host that is an IP literal (which `net.connect` never looks up). */
export function assertAllowedLiteral(host: string, allowed: AddressPolicy): void {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) === 0) return;
  if (!allowed(bare)) throw new AddressDeniedError(host, bare, addressRange(bare));
}
