import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRestProvider, importOpenApi } from '../../src/index.js';
import { minimal } from '../helpers/bad-input.js';
import { fakeSecret, useCleanups } from '../helpers/fixtures.js';

const { server, defer } = useCleanups();

/** Calls every imported tool once with `env`; returns nothing (the servers record what came). */
async function callAll(
  tools: Awaited<ReturnType<typeof importOpenApi>>['tools'],
  env: Record<string, string>,
) {
  const rest = createRestProvider({ namespace: 'creds', tools, env, timeoutMs: 5_000 });
  defer(() => rest.close());
  for (const name of Object.keys(tools)) await rest.execute(name, {}, createToolContext());
}

describe('which of your credentials a document may pick', () => {
  it('refuses an envPrefix without letters or digits: the document would pick any environment variable', async () => {
    const secret = fakeSecret('cloud');
    const api = await server();
    const document = minimal(
      { '/a': { get: { operationId: 'a', security: [{ cloud_token: [] }] } } },
      {
        servers: [{ url: api.origin }],
        components: { securitySchemes: { cloud_token: { type: 'apiKey', in: 'query', name: 'k' } } },
      },
    );
    for (const envPrefix of ['', '_', '-']) {
      const outcome = await importOpenApi({ document }, { envPrefix }).then(
        async (result) => {
          // were it imported, it would read ${CLOUD_TOKEN}, a variable the scheme's name chose
          await callAll(result.tools, { CLOUD_TOKEN: secret });
          return undefined;
        },
        (error: { code?: string; message: string }) => error,
      );
      expect(JSON.stringify(api.requests)).not.toContain(secret);
      expect(outcome?.code).toBe('CONFIG_INVALID');
      expect(outcome?.message).toContain('envPrefix must hold a letter or digit');
    }
    expect(api.requests).toHaveLength(0);
  });

  it("refuses a scheme whose default variable is another scheme's: an API key named oauth_client_secret", async () => {
    const secret = fakeSecret('secret');
    const password = fakeSecret('password');
    const api = await server();
    const document = minimal(
      {
        '/a': { get: { operationId: 'a', security: [{ oauth: [] }] } },
        '/b': { get: { operationId: 'b', security: [{ oauth_client_secret: [] }] } },
        '/c': { get: { operationId: 'c', security: [{ robot: [] }] } },
        '/d': { get: { operationId: 'd', security: [{ robot_password: [] }] } },
      },
      {
        servers: [{ url: api.origin }],
        components: {
          securitySchemes: {
            oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/token', scopes: {} } } },
            oauth_client_secret: { type: 'apiKey', in: 'query', name: 'k' },
            robot: { type: 'http', scheme: 'basic' },
            robot_password: { type: 'apiKey', in: 'header', name: 'x-robot' },
          },
        },
      },
    );
    const env = {
      PETS_OAUTH_CLIENT_ID: 'id',
      PETS_OAUTH_CLIENT_SECRET: secret,
      PETS_ROBOT_USERNAME: 'robot',
      PETS_ROBOT_PASSWORD: password,
    };
    for (const include of [['b'], ['d']]) {
      const outcome = await importOpenApi(
        { document },
        { namespace: 'pets', include: { operationIds: include } },
      ).then(
        async (result) => {
          // were it imported, it would send the OAuth2 client secret (or the basic password) as an API key
          await callAll(result.tools, env);
          return undefined;
        },
        (error: { code?: string; message: string }) => error,
      );
      expect(outcome?.code, include[0]).toBe('CONFIG_INVALID');
      expect(outcome?.message, include[0]).toContain(
        include[0] === 'b'
          ? 'security schemes "oauth_client_secret" and "oauth" would both read ${PETS_OAUTH_CLIENT_SECRET}'
          : 'security schemes "robot_password" and "robot" would both read ${PETS_ROBOT_PASSWORD}',
      );
      expect(outcome?.message).toContain('credentials.');
    }
    expect(JSON.stringify(api.requests)).not.toContain(secret);
    expect(JSON.stringify(api.requests)).not.toContain(password);
    expect(api.requests).toHaveLength(0);
    // naming the variable for one of them settles it
    const settled = await importOpenApi(
      { document },
      {
        namespace: 'pets',
        include: { operationIds: ['b'] },
        credentials: { oauth_client_secret: { value: '${PETS_QUERY_KEY}' } },
      },
    );
    expect(settled.tools.b?.auth).toMatchObject({ value: '${PETS_QUERY_KEY}' });
  });

  it('reads one variable for two schemes that send it the same way (BearerAuth and bearerAuth)', async () => {
    const token = fakeSecret('token');
    const api = await server();
    const document = minimal(
      {
        '/a': { get: { operationId: 'a', security: [{ BearerAuth: [] }] } },
        '/b': { get: { operationId: 'b', security: [{ bearerAuth: [] }] } },
      },
      {
        servers: [{ url: api.origin }],
        components: {
          securitySchemes: {
            BearerAuth: { type: 'http', scheme: 'bearer' },
            bearerAuth: { type: 'http', scheme: 'Bearer' },
          },
        },
      },
    );
    const result = await importOpenApi({ document }, { namespace: 'pets' });
    expect(result.tools.a?.auth).toEqual({ type: 'bearer', token: '${PETS_BEARERAUTH}' });
    expect(result.tools.b?.auth).toEqual({ type: 'bearer', token: '${PETS_BEARERAUTH}' });
    const rest = createRestProvider({
      namespace: 'pets',
      tools: result.tools,
      env: { PETS_BEARERAUTH: token },
    });
    defer(() => rest.close());
    for (const name of ['a', 'b']) expect((await rest.execute(name, {}, createToolContext())).ok).toBe(true);
    expect(api.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${token}`,
      `Bearer ${token}`,
    ]);
  });

  it('refuses credentials for a scheme the document does not have, or fields no scheme reads', async () => {
    const token = fakeSecret('token');
    const api = await server();
    const document = minimal(
      { '/a': { get: { operationId: 'a', security: [{ bearerAuth: [] }] } } },
      {
        servers: [{ url: api.origin }],
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      },
    );
    const cases: Array<[credentials: Record<string, unknown>, expected: string]> = [
      // ignoring a misspelt scheme name would send ${CREDS_BEARERAUTH} instead
      [
        { bearerauth: { token: '${MY_TOKEN}' } },
        'credentials.bearerauth: the document has no security scheme "bearerauth" (it has: bearerAuth)',
      ],
      [{ bearerAuth: { secret: '${MY_TOKEN}' } }, 'credentials.bearerAuth.secret is not a credential field'],
      [{ bearerAuth: { token: 5 } }, 'credentials.bearerAuth.token must be a string'],
      [{ bearerAuth: 'x' }, 'credentials.bearerAuth must be an object'],
    ];
    for (const [credentials, expected] of cases) {
      const outcome = await importOpenApi(
        { document },
        { namespace: 'creds', credentials: credentials as never },
      ).then(
        async (result) => {
          await callAll(result.tools, { MY_TOKEN: token, CREDS_BEARERAUTH: 'default' });
          return undefined;
        },
        (error: { code?: string; message: string }) => error,
      );
      expect(outcome?.code, expected).toBe('CONFIG_INVALID');
      expect(outcome?.message).toContain(expected);
    }
    expect(api.requests).toHaveLength(0);
  });
});
