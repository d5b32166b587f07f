import { Agent, buildConnector } from 'undici';
import {
  AddressDeniedError,
  addressRange,
  assertAllowedLiteral,
  createAddressPolicy,
  createGuardedLookup,
} from './address-guard.js';

/**
 * An undici Agent whose every connection is checked: IP-literal hosts before connecting, DNS
 * names through a lookup that refuses inward answers, and the socket's actual remote address
 * once connected. `allowedRanges` opens chosen CIDR ranges; with `allowPrivate` it is a plain Agent.
 */
export function createGuardedAgent(options: {
  allowPrivate: boolean;
  allowedRanges?: readonly string[];
  connectTimeoutMs: number;
}): Agent {
  if (options.allowPrivate) return new Agent({ connect: { timeout: options.connectTimeoutMs } });
  const allowed = createAddressPolicy(options.allowedRanges);
  const base = buildConnector({ lookup: createGuardedLookup(allowed), timeout: options.connectTimeoutMs });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    try {
      assertAllowedLiteral(connectOptions.hostname, allowed);
    } catch (error) {
      callback(error as Error, null);
      return;
    }
    base(connectOptions, (error, socket) => {
      if (error || !socket) {
        callback(error ?? new Error('connection failed'), null);
        return;
      }
      const remote = socket.remoteAddress;
      if (remote !== undefined && !allowed(remote)) {
        socket.destroy();
        callback(new AddressDeniedError(connectOptions.hostname, remote, addressRange(remote)), null);
        return;
      }
      callback(null, socket);
    });
  };
  return new Agent({ connect });
}

/** Finds an {@link AddressDeniedError} in an error's cause chain. */
export function findAddressDenied(error: unknown): AddressDeniedError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current; depth++) {
    if (current instanceof AddressDeniedError) return current;
    if (typeof current === 'object' && (current as { code?: string }).code === 'TOOLPLANE_ADDRESS_DENIED') {
      return current as AddressDeniedError;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
