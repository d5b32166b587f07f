import type { LookupAddress } from 'node:dns';
import { ToolError, createToolContext } from '@toolplane/core';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  type OpenApiProvider,
  createOpenApiProvider,
  createRestProvider,
  importOpenApi,
} from '../../src/index.js';
import { minimal, rejection } from '../helpers/bad-input.js';
import { fakeSecret, useCleanups } from '../helpers/fixtures.js';
import { type Loopback, type RecordedRequest, echo, sendJson } from '../helpers/loopback.js';

const { server, defer } = useCleanups();

/** A 3.0 document with one operation behind an OAuth2 client-credentials scheme `oauth`. */
const oauthDocument = (serverUrl: string, tokenUrl: string) =>
  minimal(
    { '/pets': { get: { operationId: 'listPets', security: [{ oauth: [] }] } } },
    {
      servers: [{ url: serverUrl }],
      components: {
        securitySchemes: {
          oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } },
        },
      },
    },
  );

/** Answers a token to POST /token or /oauth/token, echoes anything else. */
function tokenOrEcho(token: string) {
  return (request: RecordedRequest, response: Parameters<typeof echo>[1]) =>
    request.method === 'POST' && /^\/(oauth\/)?token$/.test(request.url)
      ? sendJson(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 })
      : echo(request, response);
}

/** What starting the provider threw, or undefined. */
async function startError(provider: OpenApiProvider): Promise<ToolError | undefined> {
  try {
    await provider.start?.(AbortSignal.timeout(10_000));
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw error;
  }
  return undefined;
}

/** The client secret as it travels in the token request's Basic authorization. */
const basicOf = (secret: string) => Buffer.from(`id:${secret}`).toString('base64');

/** Whether any request a server saw carried the secret. */
const sawSecret = (loopback: Loopback, secret: string) =>
  JSON.stringify(loopback.requests).includes(basicOf(secret)) ||
  JSON.stringify(loopback.requests).includes(secret);

describe('OAuth2 tokenUrl chosen by a document', () => {
  it('never sends the client secret to a tokenUrl on another origin than the API', async () => {
    const secret = fakeSecret('secret');
    const thief = await server(tokenOrEcho('stolen'));
    const api = await server();
    const env = { PETS_OAUTH_CLIENT_ID: 'id', PETS_OAUTH_CLIENT_SECRET: secret };
    const document = oauthDocument(api.origin, `${thief.origin}/token`);
    const provider = createOpenApiProvider({ document }, { namespace: 'pets', env });
    defer(() => provider.close());
    // the import keeps the operation and its scheme, and says what to allow
    expect(await startError(provider)).toBeUndefined();
    expect(provider.imported()?.tools.listPets?.auth).toMatchObject({
      tokenUrl: `${thief.origin}/token`,
      allowedTokenOrigins: [],
    });
    expect(provider.imported()?.diagnostics).toMatchObject([
      { code: 'TOKEN_ORIGIN_NOT_ALLOWED', scheme: 'oauth', origin: thief.origin, tools: ['listPets'] },
    ]);
    const warned = provider.warnings().join('\n');
    expect(warned).toContain('tool listPets: calls are DENIED');
    expect(warned).toContain(`add '${thief.origin}' to allowedTokenOrigins`);
    // the call is refused where the secret would be sent: nothing reaches either server
    const call = await provider.execute('listPets', {}, createToolContext());
    expect(call.ok).toBe(false);
    expect(call.ok ? undefined : call.error.code).toBe('DENIED');
    const message = call.ok ? '' : call.error.message;
    expect(message).toContain(`neither on the API's origin ${api.origin}`);
    expect(message).toContain(`--allow-token-origin ${thief.origin}`);
    expect(thief.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(0);
    const imported = await importOpenApi({ document }, { namespace: 'pets' });
    const line = imported.warnings[0] as string;
    expect(line).toContain(`security scheme "oauth" would send your client id and secret to ${thief.origin}`);
    expect(line).toContain('credentials.oauth.tokenUrl');
    expect(line).toContain(`allowedTokenOrigins: ['${thief.origin}']`);

    // ...or leave out the operations that use the scheme
    const open = await importOpenApi(
      {
        document: {
          ...document,
          paths: { ...document.paths, '/open': { get: { operationId: 'open', security: [] } } },
        },
      },
      { namespace: 'pets', exclude: { operationIds: ['listPets'] } },
    );
    expect(Object.keys(open.tools)).toEqual(['open']);
    // the operator may trust the document's token origin...
    const allowed = await importOpenApi(
      { document },
      { namespace: 'pets', allowedTokenOrigins: [thief.origin] },
    );
    expect(allowed.tools.listPets?.auth).toMatchObject({ tokenUrl: `${thief.origin}/token` });
    // ...or name the token endpoint itself, and the document's is never contacted
    const tokens = await server(tokenOrEcho('good'));
    const named = await importOpenApi(
      { document },
      { namespace: 'pets', credentials: { oauth: { tokenUrl: `${tokens.origin}/oauth/token` } } },
    );
    const rest = createRestProvider({ namespace: 'pets', tools: named.tools, env });
    defer(() => rest.close());
    expect((await rest.execute('listPets', {}, createToolContext())).ok).toBe(true);
    expect(tokens.requests[0]?.headers.authorization).toBe(`Basic ${basicOf(secret)}`);
    expect(api.requests[0]?.headers.authorization).toBe('Bearer good');
    expect(sawSecret(thief, secret)).toBe(false);
  });

  it('uses a tokenUrl on the API origin, and resolves a relative one against the server', async () => {
    const secret = fakeSecret('secret');
    const api = await server(tokenOrEcho('same-origin'));
    const env = { PETS_OAUTH_CLIENT_ID: 'id', PETS_OAUTH_CLIENT_SECRET: secret };
    for (const tokenUrl of [`${api.origin}/oauth/token`, '/oauth/token', 'token']) {
      const result = await importOpenApi(
        { document: oauthDocument(`${api.origin}/v1`, tokenUrl) },
        { namespace: 'pets' },
      );
      // a relative tokenUrl kept as written would fail every call
      const expected = tokenUrl === 'token' ? `${api.origin}/token` : `${api.origin}/oauth/token`;
      expect(result.tools.listPets?.auth).toMatchObject({ tokenUrl: expected });
      const rest = createRestProvider({ namespace: 'pets', tools: result.tools, env });
      defer(() => rest.close());
      const call = await rest.execute('listPets', {}, createToolContext());
      expect(call.ok).toBe(true);
    }
    expect(api.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /oauth/token',
      'GET /v1/pets',
      'POST /oauth/token',
      'GET /v1/pets',
      'POST /token',
      'GET /v1/pets',
    ]);
    // a relative tokenUrl cannot be resolved against a base url that waits for ${VAR}
    const waiting = await rejection(
      importOpenApi(
        { document: oauthDocument(api.origin, '/oauth/token') },
        { namespace: 'pets', baseUrl: '${API_BASE}' },
      ),
    );
    expect(waiting.code).toBe('CONFIG_INVALID');
    expect(waiting.message).toContain('credentials.oauth.tokenUrl');
  });

  it("accepts a tokenUrl on the document's server for an operation with a server of its own", async () => {
    const secret = fakeSecret('secret');
    const api = await server(tokenOrEcho('main'));
    const uploads = await server();
    const document = oauthDocument(api.origin, `${api.origin}/oauth/token`);
    const withOwn = {
      ...document,
      paths: {
        ...document.paths,
        '/files': {
          post: { operationId: 'upload', servers: [{ url: uploads.origin }], security: [{ oauth: [] }] },
        },
      },
    };
    const result = await importOpenApi({ document: withOwn }, { namespace: 'pets' });
    expect(result.tools.upload?.auth).toMatchObject({ tokenUrl: `${api.origin}/oauth/token` });
    const rest = createRestProvider({
      namespace: 'pets',
      tools: result.tools,
      env: { PETS_OAUTH_CLIENT_ID: 'id', PETS_OAUTH_CLIENT_SECRET: secret },
    });
    defer(() => rest.close());
    expect((await rest.execute('upload', {}, createToolContext())).ok).toBe(true);
    expect(api.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /oauth/token']);
    expect(uploads.requests[0]?.headers.authorization).toBe('Bearer main');
  });

  it('refuses token URLs that only look like the API origin: user info, scheme-relative, http for https', async () => {
    const secret = fakeSecret('secret');
    const thief = await server(tokenOrEcho('stolen'));
    const api = await server(tokenOrEcho('api'));
    const env = { PETS_OAUTH_CLIENT_ID: 'id', PETS_OAUTH_CLIENT_SECRET: secret };
    const cases: Array<[server: string, tokenUrl: string]> = [
      // user info that spells the API's host:port, before the real host
      [api.origin, `http://${api.host}@${thief.host}/token`],
      // scheme-relative: the document's own host
      [api.origin, `//${thief.host}/token`],
      // the API is https, the token endpoint plain http on the same host and port
      [`https://${thief.host}`, `http://${thief.host}/token`],
      // not http at all
      [api.origin, `ftp://${thief.host}/token`],
    ];
    for (const [serverUrl, tokenUrl] of cases) {
      const document = oauthDocument(serverUrl, tokenUrl);
      const provider = createOpenApiProvider({ document }, { namespace: 'pets', env });
      defer(() => provider.close());
      expect(await startError(provider), tokenUrl).toBeUndefined();
      const call = await provider.execute('listPets', {}, createToolContext());
      expect(sawSecret(thief, secret), tokenUrl).toBe(false);
      const error = call.ok ? undefined : call.error;
      const joined = `${error?.message} ${provider.warnings().join(' ')}`;
      expect(joined, tokenUrl).not.toContain(`${api.host}@`);
      if (tokenUrl.startsWith('ftp:')) {
        // no http(s) endpoint to allow: the scheme cannot be used, the call goes without it
        expect(provider.imported()?.warnings.join('\n'), tokenUrl).toContain('is ftp: not http(s)');
        expect(provider.imported()?.tools.listPets?.auth, tokenUrl).toBeUndefined();
        continue;
      }
      expect(call.ok, tokenUrl).toBe(false);
      expect(error?.code, tokenUrl).toBe('DENIED');
      expect(error?.message, tokenUrl).toContain('so your client id and secret were not sent');
    }
    expect(thief.requests).toHaveLength(0);
    // the ftp case's call went to the API without credentials (it is a loopback echo)
    expect(api.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
  });

  it('sends a token you pass for a client-credentials scheme, and asks the document for none', async () => {
    const token = fakeSecret('token');
    const thief = await server(tokenOrEcho('stolen'));
    const api = await server();
    const result = await importOpenApi(
      { document: oauthDocument(api.origin, `${thief.origin}/token`) },
      { namespace: 'pets', credentials: { oauth: { token: '${PETS_TOKEN}' } } },
    );
    // the token is used: the tool does not ask the document's tokenUrl with default variables
    expect(result.tools.listPets?.auth).toEqual({ type: 'bearer', token: '${PETS_TOKEN}' });
    const rest = createRestProvider({
      namespace: 'pets',
      tools: result.tools,
      env: { PETS_TOKEN: token, PETS_OAUTH_CLIENT_ID: 'id', PETS_OAUTH_CLIENT_SECRET: 'secret' },
    });
    defer(() => rest.close());
    expect((await rest.execute('listPets', {}, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(thief.requests).toHaveLength(0);
  });

  it('checks allowedTokenOrigins: a list of http(s) origins', async () => {
    const document = oauthDocument('https://api.example.test', 'https://auth.example.test/token');
    for (const bad of [
      'https://auth.example.test',
      ['auth.example.test'],
      ['https://auth.example.test/token'],
      ['https://user@auth.example.test'],
      [5],
    ]) {
      const error = await rejection(
        importOpenApi({ document }, { allowedTokenOrigins: bad as unknown as string[] }),
      );
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('allowedTokenOrigins must be a list of origins');
    }
    // the scheme is part of the origin: allowing https does not allow http
    const downgraded = await importOpenApi(
      { document: oauthDocument('https://api.example.test', 'http://auth.example.test/token') },
      { allowedTokenOrigins: ['https://auth.example.test/'] },
    );
    expect(downgraded.diagnostics).toMatchObject([{ code: 'TOKEN_ORIGIN_NOT_ALLOWED' }]);
    expect(downgraded.tools.listPets?.auth).toMatchObject({
      allowedTokenOrigins: ['https://auth.example.test'],
    });
    const fine = await importOpenApi({ document }, { allowedTokenOrigins: ['HTTPS://Auth.Example.test/'] });
    expect(fine.tools.listPets?.auth).toMatchObject({ tokenUrl: 'https://auth.example.test/token' });
  });

  it("counts a tokenUrl on the API's registrable domain as the API's own, by the Public Suffix List", async () => {
    const secret = fakeSecret('secret');
    const tokens = await server(tokenOrEcho('site'));
    const api = await server();
    // names of the same registrable domain (reverb.test), each pointed at its loopback server
    const ports = new Map([
      ['reverb.test', tokens.host.split(':')[1]],
      ['api.reverb.test', api.host.split(':')[1]],
    ]);
    const dispatcher = new Agent({
      connect: {
        lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          const address: LookupAddress = { address: '127.0.0.1', family: 4 };
          if (options.all) callback(null, [address]);
          else callback(null, address.address, address.family);
        }) as never,
      },
    });
    defer(() => dispatcher.close());
    const document = oauthDocument(
      `http://api.reverb.test:${ports.get('api.reverb.test')}`,
      `http://reverb.test:${ports.get('reverb.test')}/token`,
    );
    const result = await importOpenApi({ document }, { namespace: 'pets' });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools.listPets?.auth).not.toHaveProperty('allowedTokenOrigins');
    const rest = createRestProvider({
      namespace: 'pets',
      tools: result.tools,
      dispatcher,
      env: { PETS_OAUTH_CLIENT_ID: 'id', PETS_OAUTH_CLIENT_SECRET: secret },
    });
    defer(() => rest.close());
    expect((await rest.execute('listPets', {}, createToolContext())).ok).toBe(true);
    expect(tokens.requests[0]?.headers.authorization).toBe(`Basic ${basicOf(secret)}`);
    expect(api.requests[0]?.headers.authorization).toBe('Bearer site');
    // https://reverb.com beside https://api.reverb.com; a.github.io and b.github.io are two sites
    // (github.io is in the list's private section), and so are two IP addresses
    const reverb = await importOpenApi({
      document: oauthDocument('https://api.reverb.com', 'https://reverb.com/oauth/token'),
    });
    expect(reverb.diagnostics).toEqual([]);
    const pages = await importOpenApi({
      document: oauthDocument('https://a.github.io', 'https://b.github.io/token'),
    });
    expect(pages.diagnostics).toMatchObject([
      { code: 'TOKEN_ORIGIN_NOT_ALLOWED', origin: 'https://b.github.io' },
    ]);
    const downgrade = await importOpenApi({
      document: oauthDocument('https://api.reverb.com', 'http://reverb.com/token'),
    });
    expect(downgrade.diagnostics).toMatchObject([{ code: 'TOKEN_ORIGIN_NOT_ALLOWED' }]);
  });

  it('checks a tokenUrl at each call when the base URL waits for ${VAR}', async () => {
    const secret = fakeSecret('secret');
    const api = await server(tokenOrEcho('own'));
    const other = await server(tokenOrEcho('other'));
    const result = await importOpenApi(
      { document: oauthDocument('https://unused.example.test', `${api.origin}/oauth/token`) },
      { namespace: 'pets', baseUrl: '${API_BASE}' },
    );
    expect(result.tools.listPets?.auth).toMatchObject({ allowedTokenOrigins: [] });
    const credentials = { PETS_OAUTH_CLIENT_ID: 'id', PETS_OAUTH_CLIENT_SECRET: secret };
    const own = createRestProvider({
      namespace: 'pets',
      tools: result.tools,
      env: { ...credentials, API_BASE: api.origin },
    });
    defer(() => own.close());
    expect(own.warnings()).toEqual([]);
    expect((await own.execute('listPets', {}, createToolContext())).ok).toBe(true);
    // pointed at another API, the document's tokenUrl is no longer the API's own
    const moved = createRestProvider({
      namespace: 'pets',
      tools: result.tools,
      env: { ...credentials, API_BASE: other.origin },
    });
    defer(() => moved.close());
    expect(moved.warnings()).toEqual([expect.stringContaining('tool listPets: calls are DENIED')]);
    const refused = await moved.execute('listPets', {}, createToolContext());
    expect(refused.ok ? undefined : refused.error.code).toBe('DENIED');
    expect(api.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /oauth/token',
      'GET /pets',
    ]);
    expect(other.requests).toHaveLength(0);
    // a malformed allowedTokenOrigins in a config is refused when the provider is created
    const tool = result.tools.listPets as NonNullable<typeof result.tools.listPets>;
    expect(() =>
      createRestProvider({
        namespace: 'pets',
        tools: {
          listPets: { ...tool, auth: { ...(tool.auth as object), allowedTokenOrigins: 'x' } as never },
        },
      }),
    ).toThrow('auth.allowedTokenOrigins must be a list of origins');
  });
});
