import { expect, it } from 'vitest';
import * as guard from '../src/index.js';

it('exports exactly its public API', () => {
  expect(Object.keys(guard).sort()).toEqual([
    'ADDRESS_DENIED',
    'AddressDeniedError',
    'addressRange',
    'bareAddress',
    'checkHostAddresses',
    'createAddressPolicy',
    'createGuardedLookup',
    'findAddressDenied',
    'guardConnector',
    'isPublicAddress',
    'pinnedDispatch',
  ]);
});
