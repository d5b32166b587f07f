import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, makeKey, startTestServer, storages } from './helpers/test-server.js';

describe.each(storages())('revoking a key on $kind', ({ kind, skip }) => {
  let t: TestServer;

  beforeAll(async () => {
    if (!skip) t = await startTestServer({ storage: kind });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.skipIf(skip)(
    'refuses a key on the very next request after its revoke, though its lookup was just cached',
    async () => {
      const key = await makeKey(t, t.adminKey, 'agent', 'leaving');
      // a few requests, so the key's lookup is in the principal cache
      for (let i = 0; i < 3; i += 1) expect((await t.api('GET', '/v1/me', { key })).status).toBe(200);
      const keys = await t.api('GET', '/v1/keys', { key: t.adminKey });
      const id = keys.body.keys.find((k: { principalId: string }) => k.principalId === 'leaving').id;
      expect((await t.api('DELETE', `/v1/keys/${id}`, { key: t.adminKey })).status).toBe(200);
      const after = await t.api('GET', '/v1/me', { key });
      expect([after.status, after.body.error?.reason]).toEqual([401, 'key_revoked']);
      // another key of the tenant is untouched
      expect((await t.api('GET', '/v1/me', { key: t.adminKey })).status).toBe(200);
    },
  );

  it.skipIf(skip)('accepts a key on its first request right after it is made', async () => {
    const key = await makeKey(t, t.adminKey, 'user', 'newcomer');
    const me = await t.api('GET', '/v1/me', { key });
    expect([me.status, me.body.kind, me.body.id]).toEqual([200, 'user', 'newcomer']);
  });
});
