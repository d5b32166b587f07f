import { addressRange } from './address-range.js';

/** The `code` of {@link AddressDeniedError}, also set when it travels as a plain object. */
export const ADDRESS_DENIED = 'TOOLPLANE_ADDRESS_DENIED';

/**
 * A connection that would reach an address the policy refuses. Raised inside DNS lookups and
 * socket connectors, so it usually arrives wrapped in an HTTP client's error: find it with
 * {@link findAddressDenied}.
 */
export class AddressDeniedError extends Error {
  readonly code = ADDRESS_DENIED;
  /** The range of the refused address (`loopback`, `private`, `linkLocal`...). */
  readonly range: string;
  constructor(
    /** The host that was asked for (a name, or the address itself). */
    readonly host: string,
    /** The address it resolved or connected to. */
    readonly address: string,
  ) {
    const range = addressRange(address);
    super(`${host} resolves to ${address} (${range}), not a public address`);
    this.name = 'AddressDeniedError';
    this.range = range;
  }
}

/**
 * The {@link AddressDeniedError} in an error's `cause` chain (at most 8 levels), recognised by
 * class or, across two installed copies of this package, by its `code`.
 */
export function findAddressDenied(error: unknown): AddressDeniedError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current; depth++) {
    if (current instanceof AddressDeniedError) return current;
    if (typeof current === 'object' && (current as { code?: unknown }).code === ADDRESS_DENIED) {
      return current as AddressDeniedError;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
