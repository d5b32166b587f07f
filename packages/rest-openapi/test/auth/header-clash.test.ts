import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type RestToolConfig, createRestProvider, importOpenApi } from '../../src/index.js';
import { getTool, minimal, thrown } from '../helpers/bad-input.js';
import { fakeSecret, useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, defer } = useCleanups();

describe('credentials that need the same header', () => {
  it('refuses a tool whose auth entries would each set the Authorization header (or one API-key header)', async () => {
    const api = await server();
    const oauth = {
      type: 'oauth2-client-credentials' as const,
      tokenUrl: `${api.origin}/token`,
      clientId: 'id',
      clientSecret: 'secret',
    };
    for (const auth of [
      [{ type: 'bearer' as const, token: 't' }, oauth],
      [
        { type: 'basic' as const, username: 'u', password: 'p' },
        { type: 'bearer' as const, token: 't' },
      ],
      [
        { type: 'apiKey' as const, in: 'header' as const, name: 'Authorization', value: 'k' },
        { type: 'bearer' as const, token: 't' },
      ],
      [
        { type: 'apiKey' as const, in: 'header' as const, name: 'X-Key', value: 'a' },
        { type: 'apiKey' as const, in: 'header' as const, name: 'x-key', value: 'b' },
      ],
    ]) {
      // letting the last one win would send one credential, spend the other (an OAuth2 client
      // secret included) for nothing, and leave the API's 401 unexplained
      const error = thrown(() =>
        createRestProvider({ namespace: 't', env: {}, tools: { me: getTool(`${api.origin}/me`, { auth }) } }),
      );
      expect(error.code, JSON.stringify(auth)).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(/auth\[0\] and auth\[1\] both set the (authorization|x-key) header/);
    }
    expect(api.requests).toHaveLength(0);
  });

  it('does not import a document requirement that needs two credentials in the Authorization header; takes the next alternative', async () => {
    const bearer = fakeSecret('bearer');
    const tokens = await server((_request, response) =>
      sendJson(response, 200, { access_token: 'tok-1', token_type: 'Bearer' }),
    );
    const api = await server();
    const schemes = {
      oauth: {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: `${tokens.origin}/token`, scopes: {} } },
      },
      bearerAuth: { type: 'http', scheme: 'bearer' },
    };
    const document = minimal(
      {
        '/both': { get: { operationId: 'both', security: [{ oauth: [], bearerAuth: [] }] } },
        '/either': {
          get: { operationId: 'either', security: [{ oauth: [], bearerAuth: [] }, { bearerAuth: [] }] },
        },
      },
      { servers: [{ url: api.origin }], components: { securitySchemes: schemes } },
    );
    const { tools, warnings } = await importOpenApi(
      { document },
      { namespace: 'clash', allowedTokenOrigins: [tokens.origin] },
    );
    // like any requirement the client cannot meet: imported without credentials, and said so (no
    // OAuth2 token is fetched only to be replaced by the bearer token, spending the client secret)
    expect(tools.both?.auth).toBeUndefined();
    expect(warnings).toEqual([
      'GET /both: security schemes "oauth" and "bearerAuth" are required together but both need the Authorization header, which carries one credential; calls go without credentials',
    ]);
    const rest = createRestProvider({
      namespace: 'clash',
      tools,
      env: { CLASH_BEARERAUTH: bearer, CLASH_OAUTH_CLIENT_ID: 'id', CLASH_OAUTH_CLIENT_SECRET: 's' },
    });
    defer(() => rest.close());
    const either = await rest.execute('either', {}, createToolContext());
    expect(either.ok, JSON.stringify(either)).toBe(true);
    expect((await rest.execute('both', {}, createToolContext())).ok).toBe(true);
    expect(api.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${bearer}`,
      undefined,
    ]);
    expect(tokens.requests).toHaveLength(0);
  });

  it('lets optional entries that need one header stand in for each other, and refuses a call where both are set', async () => {
    const api = await server();
    const auth = [
      { type: 'bearer' as const, token: '${TOKEN}', optional: true },
      { type: 'basic' as const, username: '${USER}', password: '${PASSWORD}', optional: true },
    ];
    const token = fakeSecret('token');
    const password = fakeSecret('password');
    const make = (env: Record<string, string>) => {
      const rest = createRestProvider({
        namespace: 't',
        env,
        tools: { me: getTool(`${api.origin}/me`, { auth }) },
      });
      defer(() => rest.close());
      return rest;
    };
    expect((await make({ TOKEN: token }).execute('me', {}, createToolContext())).ok).toBe(true);
    const both = await make({ TOKEN: token, USER: 'u', PASSWORD: password }).execute(
      'me',
      {},
      createToolContext(),
    );
    // the basic credentials would replace the bearer token silently
    expect(both.ok).toBe(false);
    expect(both.ok ? undefined : both.error.code).toBe('CONFIG_INVALID');
    expect(both.ok ? '' : both.error.message).toContain(
      'auth[0] and auth[1] both set the authorization header',
    );
    expect(api.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${token}`]);
  });
});

describe('a configured header that an auth entry sets too', () => {
  it('refuses the tool, naming the header and the entry but never the value', async () => {
    const api = await server();
    const literal = fakeSecret('static');
    const cases: { headers: Record<string, string>; auth: RestToolConfig['auth'] }[] = [
      {
        headers: { Authorization: `Bearer ${literal}` },
        auth: { type: 'bearer' as const, token: '${TOKEN}' },
      },
      {
        headers: { authorization: `Basic ${literal}` },
        auth: [{ type: 'bearer' as const, token: '${TOKEN}', optional: true }],
      },
      {
        headers: { 'X-Api-Key': literal },
        auth: { type: 'apiKey' as const, in: 'header' as const, name: 'x-api-key', value: '${KEY}' },
      },
    ];
    for (const { headers, auth } of cases) {
      // the auth entry would replace the operator's header silently
      const error = thrown(() =>
        createRestProvider({
          namespace: 't',
          env: { TOKEN: fakeSecret('token'), KEY: fakeSecret('key') },
          tools: { me: getTool(`${api.origin}/me`, { headers, auth }) },
        }),
      );
      const header = Object.keys(headers)[0] as string;
      expect(error.code, header).toBe('CONFIG_INVALID');
      expect(error.message).toContain(`headers.${header} and auth`);
      expect(error.message).toContain(`both set the ${header.toLowerCase()} header`);
      expect(error.message).not.toContain(literal);
    }
    expect(api.requests).toHaveLength(0);
  });

  it('keeps a configured header that no auth entry sets, next to the credentials', async () => {
    const api = await server();
    const token = fakeSecret('token');
    const rest = createRestProvider({
      namespace: 't',
      env: { TOKEN: token },
      tools: {
        me: getTool(`${api.origin}/me`, {
          headers: { 'X-Tenant': 'acme' },
          auth: [
            { type: 'bearer', token: '${TOKEN}' },
            { type: 'apiKey', in: 'query', name: 'authorization', value: 'k' },
          ],
        }),
      },
    });
    defer(() => rest.close());
    expect((await rest.execute('me', {}, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.headers['x-tenant']).toBe('acme');
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('skips an imported operation whose scheme sets a header toolDefaults sets, with the reason', async () => {
    const literal = fakeSecret('static');
    const document = minimal(
      {
        '/secured': { get: { operationId: 'secured', security: [{ bearerAuth: [] }] } },
        '/open': { get: { operationId: 'open' } },
      },
      {
        servers: [{ url: 'https://api.example.com' }],
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      },
    );
    const { tools, warnings } = await importOpenApi(
      { document },
      { namespace: 'clash', toolDefaults: { headers: { Authorization: `Bearer ${literal}` } } },
    );
    expect(Object.keys(tools)).toEqual(['open']);
    expect(warnings.join('\n')).toContain(
      'headers.Authorization and auth (bearer) both set the authorization header',
    );
    expect(warnings.join('\n')).not.toContain(literal);
  });
});

describe('one header configured twice', () => {
  it('refuses headers that differ only in case, and a header argument named like a configured header', async () => {
    const api = await server();
    const extras: Partial<RestToolConfig>[] = [
      { headers: { 'X-Key': 'a', 'x-key': 'b' } },
      {
        headers: { 'X-Trace': 'fixed' },
        parameters: { trace: { in: 'header' as const, name: 'x-trace' } },
        parametersSchema: { type: 'object', properties: { trace: { type: 'string' } } },
      },
    ];
    for (const extra of extras) {
      // one of the two would be dropped silently (the last key, or the argument)
      const error = thrown(() =>
        createRestProvider({ namespace: 't', env: {}, tools: { me: getTool(`${api.origin}/me`, extra) } }),
      );
      expect(error.code, JSON.stringify(extra)).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(/both set the x-(key|trace) header/);
    }
    expect(api.requests).toHaveLength(0);
  });
});

describe('a header toolDefaults pins', () => {
  it('takes a document header parameter of that name out of the arguments instead of refusing the operation', async () => {
    const api = await server();
    const document = minimal(
      {
        '/a': {
          get: {
            operationId: 'a',
            parameters: [{ name: 'X-Api-Version', in: 'header', required: true, schema: { type: 'string' } }],
          },
        },
      },
      { servers: [{ url: api.origin }] },
    );
    const { tools, warnings } = await importOpenApi(
      { document },
      { namespace: 'pin', toolDefaults: { headers: { 'x-api-version': '2022-11-28' } } },
    );
    expect(tools.a?.parametersSchema.properties).toEqual({});
    expect(warnings).toEqual([
      'GET /a: header parameter X-Api-Version is set by toolDefaults.headers; it is not an argument',
    ]);
    const rest = createRestProvider({ namespace: 'pin', env: {}, tools });
    defer(() => rest.close());
    expect((await rest.execute('a', {}, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.headers['x-api-version']).toBe('2022-11-28');
  });
});
