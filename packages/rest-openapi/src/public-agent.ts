import {
  type LookupFunction,
  createGuardedLookup,
  guardConnector,
  isPublicAddress,
} from '@toolplane/address-guard';
import { Agent, buildConnector } from 'undici';
import type { ConnectingSockets } from './connecting.js';

/** What a public-only tool's refused address means, and what to do about it. */
export const PUBLIC_ONLY_HINT =
  "this tool connects only to public addresses (its server was named by an OpenAPI document from a public origin); import the document with baseUrl to pin the API's address, or remove publicAddressesOnly from the tool's config";

/**
 * An undici `Agent` that connects only to public addresses, through the shared address guard:
 * an IP-literal host is judged before connecting, a name through a lookup that refuses inward
 * answers, and the socket's remote address once connected. Every connection goes through it,
 * redirects' too.
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
    lookup: createGuardedLookup(isPublicAddress, options.lookup) as never,
    timeout: options.connectTimeout,
  });
  const base = options.connecting ? options.connecting.track(built) : built;
  return new Agent({
    connect: guardConnector(base, isPublicAddress),
    connections: options.connections,
    headersTimeout: options.headersTimeout,
    bodyTimeout: options.bodyTimeout,
    keepAliveTimeout: 4_000,
  });
}
