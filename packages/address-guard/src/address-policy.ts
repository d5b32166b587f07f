import ipaddr from 'ipaddr.js';
import { bareAddress, isPublicAddress } from './address-range.js';

/** Decides whether a connection to an IP address may be made. */
export type AddressPolicy = (address: string) => boolean;

/** Options of {@link createAddressPolicy}. */
export interface AddressPolicyOptions {
  /** CIDR ranges allowed besides public unicast addresses (`10.1.2.0/24`, `fd12::/16`). */
  readonly allowedRanges?: readonly string[];
  /** Where the ranges come from, for the message of a malformed one (`webFetch.allowedRanges`). */
  readonly label?: string;
}

/**
 * A policy that allows public unicast addresses plus the given CIDR ranges. An address in an
 * allowed range matches only ranges of its own family; an IPv4-mapped IPv6 address is judged as
 * its IPv4 address. Throws an `Error` naming the range and the option when a range is malformed.
 *
 * @example
 * const allowed = createAddressPolicy({ allowedRanges: ['10.1.0.0/16'] });
 * allowed('10.1.2.3'); // true
 * allowed('10.2.0.1'); // false
 */
export function createAddressPolicy(options: AddressPolicyOptions = {}): AddressPolicy {
  const label = options.label ?? 'allowedRanges';
  const ranges = (options.allowedRanges ?? []).map((range) => {
    try {
      return ipaddr.parseCIDR(range);
    } catch {
      throw new Error(`${label}: "${range}" is not a CIDR range such as 10.0.0.0/8`);
    }
  });
  if (ranges.length === 0) return isPublicAddress;
  return (address) => {
    if (isPublicAddress(address)) return true;
    const bare = bareAddress(address);
    if (!ipaddr.isValid(bare)) return false;
    const parsed = ipaddr.process(bare);
    return ranges.some(([network, bits]) => parsed.kind() === network.kind() && parsed.match(network, bits));
  };
}
