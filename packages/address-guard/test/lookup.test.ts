import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  AddressDeniedError,
  type LookupFunction,
  checkHostAddresses,
  createAddressPolicy,
  createGuardedLookup,
  findAddressDenied,
} from '../src/index.js';

/** A resolver that answers from a table, as a DNS server that points names anywhere would. */
function tableLookup(table: Record<string, string[]>): LookupFunction {
  return (hostname, _options, callback) => {
    const addresses = table[hostname];
    if (!addresses) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
      return;
    }
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
}

const lookup = tableLookup({
  'public.example': ['93.184.215.14'],
  'mixed.example': ['93.184.215.14', '10.0.0.7'],
  'empty.example': [],
});

describe('checkHostAddresses', () => {
  it('resolves to the first address of a name whose addresses are all public', async () => {
    await expect(checkHostAddresses('public.example', { lookup })).resolves.toBe('93.184.215.14');
  });

  it('refuses a name when any one of its addresses is not public', async () => {
    const error = await checkHostAddresses('mixed.example', { lookup }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AddressDeniedError);
    expect(error).toMatchObject({ host: 'mixed.example', address: '10.0.0.7', range: 'private' });
    expect((error as Error).message).toBe(
      'mixed.example resolves to 10.0.0.7 (private), not a public address',
    );
  });

  it('judges an IP literal without a lookup, brackets and all', async () => {
    await expect(checkHostAddresses('[::1]', { lookup })).rejects.toMatchObject({ range: 'loopback' });
    await expect(checkHostAddresses('8.8.4.4', { lookup })).resolves.toBe('8.8.4.4');
  });

  it('resolves localhost through the system resolver and refuses it, unless loopback is allowed', async () => {
    await expect(checkHostAddresses('localhost')).rejects.toMatchObject({ range: 'loopback' });
    const policy = createAddressPolicy({ allowedRanges: ['127.0.0.0/8', '::1/128'] });
    expect(['127.0.0.1', '::1']).toContain(await checkHostAddresses('localhost', { policy }));
  });

  it('passes a resolver error through and reports a name without addresses as ENOTFOUND', async () => {
    await expect(checkHostAddresses('unknown.example', { lookup })).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
    await expect(checkHostAddresses('empty.example', { lookup })).rejects.toMatchObject({
      code: 'ENOTFOUND',
      message: 'no address for empty.example',
    });
  });

  it('gives up a lookup that never answers when its signal aborts', async () => {
    const silent: LookupFunction = () => {};
    const controller = new AbortController();
    const pending = checkHostAddresses('public.example', { lookup: silent, signal: controller.signal });
    controller.abort(new Error('deadline'));
    await expect(pending).rejects.toThrow('deadline');
    const aborted = AbortSignal.abort(new Error('already'));
    await expect(checkHostAddresses('public.example', { lookup, signal: aborted })).rejects.toThrow(
      'already',
    );
  });
});

describe('createGuardedLookup', () => {
  function ask(
    guarded: LookupFunction,
    host: string,
    all: boolean,
  ): Promise<{ error: unknown; address: string | LookupAddress[]; family?: number }> {
    return new Promise((resolve) =>
      guarded(host, { all }, (error, address, family) => resolve({ error, address, family })),
    );
  }

  it('answers like dns.lookup for an allowed name, one address or all', async () => {
    const guarded = createGuardedLookup(undefined, lookup);
    expect(await ask(guarded, 'public.example', false)).toEqual({
      error: null,
      address: '93.184.215.14',
      family: 4,
    });
    expect((await ask(guarded, 'public.example', true)).address).toEqual([
      { address: '93.184.215.14', family: 4 },
    ]);
  });

  it('fails the lookup with an AddressDeniedError that an HTTP client error still carries', async () => {
    const { error } = await ask(createGuardedLookup(undefined, lookup), 'mixed.example', false);
    const wrapped = new TypeError('fetch failed', { cause: new Error('connect failed', { cause: error }) });
    expect(findAddressDenied(wrapped)).toBe(error);
    expect(findAddressDenied({ code: 'TOOLPLANE_ADDRESS_DENIED', host: 'x' })).toMatchObject({ host: 'x' });
    expect(findAddressDenied(new Error('other'))).toBeUndefined();
  });
});
