import ipaddr from 'ipaddr.js';

/** An address without the brackets of a URL's IPv6 host (`[::1]` -> `::1`). */
export function bareAddress(address: string): string {
  return address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
}

/**
 * The range an IP address belongs to, in ipaddr.js's names: `unicast` (public), `private`,
 * `loopback`, `linkLocal` (with the cloud metadata address 169.254.169.254), `uniqueLocal`,
 * `carrierGradeNat`, `unspecified`, `multicast`, `6to4`, `teredo`, `rfc6052`... and `invalid`
 * for what is not an address. An IPv4-mapped IPv6 address is judged as the IPv4 address it
 * carries, so `::ffff:10.0.0.1` is `private`.
 *
 * @example addressRange('169.254.169.254') // 'linkLocal'
 */
export function addressRange(address: string): string {
  const bare = bareAddress(address);
  if (!ipaddr.isValid(bare)) return 'invalid';
  return ipaddr.process(bare).range();
}

/**
 * True when an address is public unicast. Everything else (loopback, private, link-local,
 * unique-local, carrier-grade NAT, unspecified, multicast, and the IPv6 forms that carry an IPv4
 * address: mapped, NAT64, 6to4, Teredo) is not.
 *
 * @example isPublicAddress('8.8.8.8') // true
 */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}
