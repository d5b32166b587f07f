import { type LookupAddress, type LookupOptions, lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { AddressDeniedError } from './address-denied.js';
import type { AddressPolicy } from './address-policy.js';
import { bareAddress, isPublicAddress } from './address-range.js';

/** `dns.lookup`'s shape: what `net.connect` calls to resolve a host name. */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

function noAddress(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND', hostname });
}

/**
 * A `lookup` for `net.connect` (and undici's connector) that resolves every address of a name and
 * refuses the name with {@link AddressDeniedError} when any of them is not allowed, so a DNS name
 * that points inward is caught when the connection is made, not only when a URL is checked.
 *
 * @example
 * net.connect({ host: 'example.com', port: 443, lookup: createGuardedLookup(isPublicAddress) });
 */
export function createGuardedLookup(
  policy: AddressPolicy = isPublicAddress,
  lookup: LookupFunction = dnsLookup,
): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const list = addresses as LookupAddress[];
      const refused = list.find((entry) => !policy(entry.address));
      if (refused) return callback(new AddressDeniedError(hostname, refused.address), '');
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(noAddress(hostname), '');
      callback(null, first.address, first.family);
    });
  };
}

/** Options of {@link checkHostAddresses}. */
export interface CheckHostOptions {
  /** Which addresses are allowed; public unicast by default. */
  readonly policy?: AddressPolicy;
  /** The resolver; `dns.lookup` by default. */
  readonly lookup?: LookupFunction;
  /** Gives up a lookup that never answers, rejecting with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * Resolves a host (every address) and rejects with {@link AddressDeniedError} unless each one is
 * allowed; resolves to the address to connect to (the first one, or the host itself when it is
 * an address). Connect to that address (see {@link pinnedDispatch}) rather than the name, so a
 * second resolution cannot answer differently.
 *
 * @example const address = await checkHostAddresses('registry.npmjs.org');
 */
export function checkHostAddresses(hostname: string, options: CheckHostOptions = {}): Promise<string> {
  const policy = options.policy ?? isPublicAddress;
  const host = bareAddress(hostname);
  if (isIP(host) !== 0) {
    return policy(host) ? Promise.resolve(host) : Promise.reject(new AddressDeniedError(host, host));
  }
  const { signal } = options;
  const lookup = options.lookup ?? dnsLookup;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    lookup(host, { all: true }, (error, addresses) => {
      signal?.removeEventListener('abort', onAbort);
      if (error) return reject(error);
      const list = addresses as LookupAddress[];
      const refused = list.find((entry) => !policy(entry.address));
      const first = list[0];
      if (refused) reject(new AddressDeniedError(host, refused.address));
      else if (!first) reject(noAddress(host));
      else resolve(first.address);
    });
  });
}
