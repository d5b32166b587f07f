import { isIP } from 'node:net';
import { bareAddress } from './address-range.js';

/** Request options that send a request to one address, whatever a dispatcher would resolve. */
export interface PinnedDispatch {
  readonly origin: string;
  readonly headers: Record<string, string>;
  /** The TLS server name (SNI and the certificate check): the host's name, not the address. */
  readonly servername?: string;
}

/**
 * Pins a request to an address already checked by `checkHostAddresses`, so a dispatcher cannot
 * resolve the name again and reach another address (DNS rebinding between the check and the
 * connection): the origin becomes the address, the name goes in `Host` (unless the headers set
 * one) and is the TLS server name, so the certificate is still checked for the name. An origin
 * that is an address already is returned as it is.
 *
 * @example pinnedDispatch('https://api.example.com', '93.184.215.14', {})
 * // { origin: 'https://93.184.215.14', headers: { host: 'api.example.com' }, servername: 'api.example.com' }
 */
export function pinnedDispatch(
  origin: string,
  address: string,
  headers: Record<string, string>,
): PinnedDispatch {
  const url = new URL(origin);
  if (isIP(bareAddress(url.hostname)) !== 0) return { origin, headers };
  const literal = address.includes(':') ? `[${address}]` : address;
  const hasHost = Object.keys(headers).some((name) => name.toLowerCase() === 'host');
  return {
    origin: `${url.protocol}//${literal}${url.port ? `:${url.port}` : ''}`,
    headers: hasHost ? headers : { ...headers, host: url.host },
    ...(url.protocol === 'https:' ? { servername: url.hostname } : {}),
  };
}
