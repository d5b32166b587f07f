import { type LookupAddress, type LookupOptions, lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';
import type { ConnectingSockets } from './connecting.js';

/** `dns.lookup`'s shape: what `net.connect` calls to resolve a host name. */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** Code of the error a refused address raises inside undici (mapped to `DENIED`). */
export const ADDRESS_DENIED = 'TOOLPLANE_ADDRESS_DENIED';

/** A connection of a public-only tool that would reach a local or private address. */
export class AddressDeniedError extends Error {
  readonly code = ADDRESS_DENIED;
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, a ${rangeOf(address)} address`);
    this.name = 'AddressDeniedError';
  }
}

function bare(address: string): string {
  return address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
}

/** The {@link AddressDeniedError} in an error's cause chain, if any. */
export function addressDenied(error: unknown): AddressDeniedError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof AddressDeniedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a public-only tool's refused address means, and what to do about it. */
export const PUBLIC_ONLY_HINT =
  "this tool connects only to public addresses (its server was named by an OpenAPI document from a public origin); import the document with baseUrl to pin the API's address, or remove publicAddressesOnly from the tool's config";

/** ipaddr.js's range name (`loopback`, `private`, `linkLocal`, `rfc6052`...), IPv4-mapped IPv6 as its IPv4. */
function rangeOf(address: string): string {
  const plain = bare(address);
  return ipaddr.isValid(plain) ? ipaddr.process(plain).range() : 'invalid';
}

/**
 * Whether an IP address is public unicast. Everything else (loopback, private, link-local with
 * the cloud metadata address, unique-local, carrier-grade NAT, unspecified, multicast, and the
 * IPv6 forms that carry an IPv4 address: mapped, NAT64, 6to4, Teredo) is not.
 */
export function isPublicAddress(address: string): boolean {
  return rangeOf(address) === 'unicast';
}

/**
 * Resolves `hostname` (all addresses) and throws {@link AddressDeniedError} unless every one is
 * public; resolves to the address to connect to (the first, or the host itself when it is an
 * address). A lookup that never answers is given up when `signal` aborts (with its reason).
 */
export function checkHostAddresses(
  hostname: string,
  lookup: LookupFunction = dnsLookup,
  signal?: AbortSignal,
): Promise<string> {
  const host = bare(hostname);
  if (isIP(host) !== 0) {
    return isPublicAddress(host) ? Promise.resolve(host) : Promise.reject(new AddressDeniedError(host, host));
  }
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    lookup(host, { all: true }, (error, addresses) => {
      signal?.removeEventListener('abort', onAbort);
      if (error) return reject(error);
      const list = addresses as LookupAddress[];
      const inward = list.find((entry) => !isPublicAddress(entry.address));
      const first = list[0];
      if (inward) reject(new AddressDeniedError(host, inward.address));
      else if (!first)
        reject(Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND', hostname: host }));
      else resolve(first.address);
    });
  });
}

/** Dispatch options that send a request to one address, whatever the dispatcher would resolve. */
export interface PinnedDispatch {
  readonly origin: string;
  readonly headers: Record<string, string>;
  /** The TLS server name (SNI and the certificate check): the host's name, not the address. */
  readonly servername?: string;
}

/**
 * Pins a request to `address`, checked by {@link checkHostAddresses}, so an application's
 * dispatcher cannot resolve the name again and reach another address (DNS rebinding between the
 * check and the connection): the origin becomes the address, the name stays in `Host` (unless
 * the tool sets one) and is the TLS server name, so the certificate is still checked for the
 * name. This is what undici's own DNS interceptor does; an origin that is an address already is
 * left as it is.
 */
export function pinnedDispatch(
  origin: string,
  address: string,
  headers: Record<string, string>,
): PinnedDispatch {
  const url = new URL(origin);
  if (isIP(bare(url.hostname)) !== 0) return { origin, headers };
  const literal = address.includes(':') ? `[${address}]` : address;
  const hasHost = Object.keys(headers).some((name) => name.toLowerCase() === 'host');
  return {
    origin: `${url.protocol}//${literal}${url.port ? `:${url.port}` : ''}`,
    headers: hasHost ? headers : { ...headers, host: url.host },
    ...(url.protocol === 'https:' ? { servername: url.hostname } : {}),
  };
}

/** A `lookup` for `net.connect` that refuses a name when any address it resolves to is not public. */
function guardedLookup(lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const list = addresses as LookupAddress[];
      const inward = list.find((entry) => !isPublicAddress(entry.address));
      if (inward) return callback(new AddressDeniedError(hostname, inward.address), '');
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}

/**
 * An undici `Agent` that connects only to public addresses: an IP-literal host is judged before
 * connecting, a name through a lookup that refuses inward answers, and the socket's remote address
 * once connected. Every connection goes through it, redirects' too.
 */
export function createPublicAgent(options: {
  readonly lookup?: LookupFunction;
  /** Where the sockets still connecting are kept, for the provider's close(). */
  readonly connecting?: ConnectingSockets;
  readonly connections: number;
  readonly connectTimeout: number;
  readonly headersTimeout: number;
  readonly bodyTimeout: number;
}): Agent {
  const built = buildConnector({
    lookup: guardedLookup(options.lookup ?? dnsLookup) as never,
    timeout: options.connectTimeout,
  });
  const base = options.connecting ? options.connecting.track(built) : built;
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const host = bare(connectOptions.hostname);
    if (isIP(host) !== 0 && !isPublicAddress(host)) {
      callback(new AddressDeniedError(host, host), null);
      return;
    }
    base(connectOptions, (error, socket) => {
      if (error || !socket) {
        callback(error ?? new Error('connection failed'), null);
        return;
      }
      const remote = socket.remoteAddress;
      if (remote !== undefined && !isPublicAddress(remote)) {
        socket.destroy();
        callback(new AddressDeniedError(host, remote), null);
        return;
      }
      callback(null, socket);
    });
  };
  return new Agent({
    connect,
    connections: options.connections,
    headersTimeout: options.headersTimeout,
    bodyTimeout: options.bodyTimeout,
    keepAliveTimeout: 4_000,
  });
}
