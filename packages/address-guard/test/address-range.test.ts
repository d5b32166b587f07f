import { describe, expect, it } from 'vitest';
import { addressRange, bareAddress, isPublicAddress } from '../src/index.js';

describe('addressRange', () => {
  it.each([
    ['8.8.8.8', 'unicast'],
    ['2606:4700::1111', 'unicast'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::', '6to4'],
    ['2001::1', 'teredo'],
    ['not-an-ip', 'invalid'],
    ['', 'invalid'],
  ])('puts %s in the %s range', (address, range) => {
    expect(addressRange(address)).toBe(range);
  });

  it('calls only public unicast addresses public', () => {
    expect(isPublicAddress('1.1.1.1')).toBe(true);
    expect(isPublicAddress('::ffff:1.1.1.1')).toBe(true);
    expect(isPublicAddress('169.254.169.254')).toBe(false);
    expect(isPublicAddress('localhost')).toBe(false);
  });

  it('strips the brackets of a URL host only', () => {
    expect(bareAddress('[::1]')).toBe('::1');
    expect(bareAddress('::1')).toBe('::1');
    expect(bareAddress('[::1')).toBe('[::1');
  });
});
