// Everything exported here is public API of @toolplane/address-guard.
export { ADDRESS_DENIED, AddressDeniedError, findAddressDenied } from './address-denied.js';
export { type AddressPolicy, type AddressPolicyOptions, createAddressPolicy } from './address-policy.js';
export { addressRange, bareAddress, isPublicAddress } from './address-range.js';
export {
  type ConnectTarget,
  type ConnectedSocket,
  type Connector,
  guardConnector,
} from './guard-connector.js';
export {
  type CheckHostOptions,
  type LookupFunction,
  checkHostAddresses,
  createGuardedLookup,
} from './lookup.js';
export { type PinnedDispatch, pinnedDispatch } from './pinned-dispatch.js';
