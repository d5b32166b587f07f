import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../src/index.js';

describe('createAddressPolicy', () => {
  it('allows public unicast addresses only, by default', () => {
    const allowed = createAddressPolicy();
    expect(allowed('93.184.215.14')).toBe(true);
    expect(allowed('127.0.0.1')).toBe(false);
    expect(allowed('10.1.2.3')).toBe(false);
  });

  it('opens the given ranges and nothing next to them', () => {
    const allowed = createAddressPolicy({ allowedRanges: ['10.1.0.0/16', 'fd12::/16'] });
    expect(allowed('10.1.2.3')).toBe(true);
    expect(allowed('::ffff:10.1.2.3')).toBe(true);
    expect(allowed('10.2.0.1')).toBe(false);
    expect(allowed('fd12::5')).toBe(true);
    expect(allowed('fd13::5')).toBe(false);
    expect(allowed('127.0.0.1')).toBe(false);
    expect(allowed('not-an-address')).toBe(false);
  });

  it('matches a range only against addresses of its own family', () => {
    const allowed = createAddressPolicy({ allowedRanges: ['::/0'] });
    expect(allowed('::1')).toBe(true);
    expect(allowed('10.0.0.1')).toBe(false);
  });

  it('refuses a malformed range, naming it and the option it came from', () => {
    expect(() =>
      createAddressPolicy({ allowedRanges: ['nonsense'], label: 'webFetch.allowedRanges' }),
    ).toThrow('webFetch.allowedRanges: "nonsense" is not a CIDR range such as 10.0.0.0/8');
    expect(() => createAddressPolicy({ allowedRanges: ['10.0.0.0/33'] })).toThrow(
      'allowedRanges: "10.0.0.0/33" is not a CIDR range',
    );
  });
});
