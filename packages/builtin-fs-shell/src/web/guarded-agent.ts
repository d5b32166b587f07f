import { createAddressPolicy, createGuardedLookup, guardConnector } from '@toolplane/address-guard';
import { Agent, buildConnector } from 'undici';

/**
 * The undici Agent of web_fetch. Every connection is checked by the shared address guard: IP
 * literals before connecting, DNS names through a lookup that refuses inward answers, and the
 * socket's remote address once connected. `allowedRanges` opens chosen CIDR ranges; with
 * `allowPrivate` it is a plain Agent.
 */
export function createGuardedAgent(options: {
  allowPrivate: boolean;
  allowedRanges?: readonly string[];
  connectTimeoutMs: number;
}): Agent {
  if (options.allowPrivate) return new Agent({ connect: { timeout: options.connectTimeoutMs } });
  const policy = createAddressPolicy({
    allowedRanges: options.allowedRanges ?? [],
    label: 'webFetch.allowedRanges',
  });
  const base = buildConnector({ lookup: createGuardedLookup(policy), timeout: options.connectTimeoutMs });
  return new Agent({ connect: guardConnector(base, policy) });
}
