import { isIP } from 'node:net';
import { AddressDeniedError } from './address-denied.js';
import type { AddressPolicy } from './address-policy.js';
import { bareAddress } from './address-range.js';

/** What a connector is asked to connect to (undici's `buildConnector.Options` has these). */
export interface ConnectTarget {
  readonly hostname: string;
}

/** A connected socket, as far as the guard needs to see it. */
export interface ConnectedSocket {
  readonly remoteAddress?: string | undefined;
  destroy(): void;
}

/** A callback-style connector such as undici's `buildConnector()` returns. */
export type Connector<Target extends ConnectTarget, Socket extends ConnectedSocket> = (
  target: Target,
  callback: (...args: [null, Socket] | [Error, null]) => void,
) => void;

/**
 * Wraps a connector so every connection it makes is checked: a host that is an IP literal before
 * connecting (a lookup never sees it), and the socket's remote address once connected (whatever
 * resolved it). Pair it with a connector built with {@link createGuardedLookup}, which refuses a
 * name whose addresses are not all allowed. A refused connection fails with
 * {@link AddressDeniedError}; a connected socket that is refused is destroyed first.
 *
 * @example
 * import { Agent, buildConnector } from 'undici';
 * const connect = guardConnector(buildConnector({ lookup: createGuardedLookup(policy) }), policy);
 * const agent = new Agent({ connect });
 */
export function guardConnector<Target extends ConnectTarget, Socket extends ConnectedSocket>(
  connector: Connector<Target, Socket>,
  policy: AddressPolicy,
): Connector<Target, Socket> {
  return (target, callback) => {
    const host = bareAddress(target.hostname);
    if (isIP(host) !== 0 && !policy(host)) {
      callback(new AddressDeniedError(host, host), null);
      return;
    }
    connector(target, (...result) => {
      const [error, socket] = result;
      if (error || !socket) {
        callback(error ?? new Error('connection failed'), null);
        return;
      }
      const remote = socket.remoteAddress;
      if (remote !== undefined && !policy(remote)) {
        socket.destroy();
        callback(new AddressDeniedError(host, remote), null);
        return;
      }
      callback(null, socket);
    });
  };
}
