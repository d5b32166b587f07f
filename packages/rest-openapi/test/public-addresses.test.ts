import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { Agent, buildConnector } from 'undici';
import { describe, expect, it } from 'vitest';
import { type RestToolConfig, createRestProvider, importOpenApi } from '../src/index.js';
import { failure, minimal, rejection, thrown } from './helpers/bad-input.js';
import { fakeSecret, useCleanups } from './helpers/fixtures.js';
import { type Loopback, echo, sendJson } from './helpers/loopback.js';

const { server, provider, defer } = useCleanups();

type Callback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `dns.lookup` stand-in answering from a table (no /etc/hosts, no DNS server needed). */
function tableLookup(table: Record<string, string>) {
  return (hostname: string, options: LookupOptions, callback: Callback): void => {
    const address = table[hostname];
    if (address === undefined) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
      return;
    }
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * An application's dispatcher whose DNS answers from the table too (a resolver that points
 * inward), and whose network routes an address in the table to the address it maps to.
 */
function tableAgent(table: Record<string, string>): Agent {
  const base = buildConnector({ lookup: tableLookup(table) as never });
  const agent = new Agent({
    connect: (options, callback) => {
      const routed = isIP(options.hostname) !== 0 ? table[options.hostname] : undefined;
      return base(routed ? { ...options, hostname: routed } : options, callback);
    },
  });
  defer(() => agent.destroy());
  return agent;
}

const PUBLIC_DOCUMENT = 'https://public.example.com/openapi.json';

async function importFrom(api: Loopback, host: string, extra: Record<string, unknown> = {}) {
  const port = new URL(api.origin).port;
  const document = minimal(
    { '/a': { get: { operationId: 'a' } } },
    { servers: [{ url: `http://${host}:${port}` }] },
  );
  return importOpenApi({ document, baseUrl: PUBLIC_DOCUMENT }, { namespace: 'pub', ...extra });
}

describe('servers of a public document named by a DNS name that resolves inward', () => {
  it('refuses the connection when the name resolves to a loopback address (the provider resolves)', async () => {
    const api = await server();
    const lookup = tableLookup({ 'inward.example.net': '127.0.0.1' });
    const { tools } = await importFrom(api, 'inward.example.net');
    expect(tools.a?.publicAddressesOnly).toBe(true);
    const rest = provider(tools, { lookup });
    const result = failure(await rest.execute('a', {}, createToolContext()));
    expect(result.error.code).toBe('DENIED');
    expect(result.error.message).toContain('inward.example.net resolves to 127.0.0.1');
    expect(result.error.message).toContain('baseUrl');
    expect(api.requests).toHaveLength(0);
  });

  it('refuses it through an application dispatcher too, and on every redirect', async () => {
    const inner = await server();
    const port = new URL(inner.origin).port;
    const api = await server((_request, response) => {
      response.writeHead(302, { location: `http://inner.example.net:${port}/x` });
      response.end();
    });
    // the application's resolver points both names at this machine (and its network routes the
    // public address the check is told about here, as the request is pinned to it)
    const dispatcher = tableAgent({
      'inward.example.net': '127.0.0.1',
      'inner.example.net': '127.0.0.1',
      '93.184.215.14': '127.0.0.1',
    });
    const { tools } = await importFrom(api, 'inward.example.net');
    // through a dispatcher the application passed (it may pin or proxy): the host is resolved
    // and checked before every request
    const direct = provider(tools, {
      dispatcher,
      lookup: tableLookup({ 'inward.example.net': '127.0.0.1' }),
    });
    const refused = failure(await direct.execute('a', {}, createToolContext()));
    expect(refused.error.code).toBe('DENIED');
    expect(api.requests).toHaveLength(0);
    // the first hop looks public to the check; the redirect's target does not
    const redirected = createRestProvider({
      namespace: 'pub',
      env: {},
      dispatcher,
      lookup: tableLookup({ 'inward.example.net': '93.184.215.14', 'inner.example.net': '10.1.2.3' }),
      tools: { a: { ...(tools.a as RestToolConfig), allowedRedirectHosts: ['inner.example.net'] } },
    });
    defer(() => redirected.close());
    const second = failure(await redirected.execute('a', {}, createToolContext()));
    expect(second.error.code).toBe('DENIED');
    expect(second.error.message).toContain('inner.example.net resolves to 10.1.2.3');
    expect(api.requests).toHaveLength(1);
    expect(inner.requests).toHaveLength(0);
  });

  it('keeps the opt-out (a pinned baseUrl) and documents from local addresses, by name or by what it resolves to', async () => {
    const api = await server();
    const port = new URL(api.origin).port;
    const dispatcher = tableAgent({ 'inward.example.net': '127.0.0.1' });
    const lookup = tableLookup({ 'inward.example.net': '127.0.0.1' });
    const pinned = await importFrom(api, 'elsewhere.example.net', {
      baseUrl: `http://inward.example.net:${port}`,
    });
    const local = await importOpenApi(
      {
        document: minimal(
          { '/a': { get: { operationId: 'a' } } },
          { servers: [{ url: `http://inward.example.net:${port}` }] },
        ),
        baseUrl: `${api.origin}/openapi.json`,
      },
      { namespace: 'pub' },
    );
    // fetched from a name of the internal network: a local document, which may name any server
    const docs = await server((request, response) => {
      if (request.url !== '/openapi.json') return echo(request, response);
      sendJson(
        response,
        200,
        minimal(
          { '/a': { get: { operationId: 'a' } } },
          { servers: [{ url: `http://inward.example.net:${port}` }] },
        ),
      );
    });
    const internal = await importOpenApi(
      `http://docs.example.net:${new URL(docs.origin).port}/openapi.json`,
      {
        namespace: 'pub',
        dispatcher: tableAgent({ 'docs.example.net': '127.0.0.1' }),
        lookup: tableLookup({ 'docs.example.net': '127.0.0.1' }),
      },
    );
    for (const tools of [pinned.tools, local.tools, internal.tools]) {
      expect(tools.a?.publicAddressesOnly).toBeUndefined();
      const result = await provider(tools, { dispatcher, lookup }).execute('a', {}, createToolContext());
      expect(result.ok).toBe(true);
    }
    expect(api.requests).toHaveLength(3);
    // the same document from a name that resolves to a public address is a public one
    const outside = await importOpenApi(`http://docs.example.net:${new URL(docs.origin).port}/openapi.json`, {
      namespace: 'pub',
      dispatcher: tableAgent({ 'docs.example.net': '127.0.0.1' }),
      lookup: tableLookup({ 'docs.example.net': '93.184.215.14' }),
    });
    expect(outside.tools.a?.publicAddressesOnly).toBe(true);
  });

  it('refuses literal addresses in any spelling when a tool asks for public addresses only', async () => {
    const api = await server();
    const port = new URL(api.origin).port;
    for (const host of [
      '127.1',
      '0x7f.1',
      '2130706433',
      '0177.0.0.1',
      '[::ffff:127.0.0.1]',
      '[64:ff9b::127.0.0.1]',
      '[2002:7f00:1::1]',
    ]) {
      // at import, as a server of a public document
      const document = minimal(
        { '/a': { get: { operationId: 'a' } } },
        { servers: [{ url: `http://${host}:${port}` }] },
      );
      const error = await rejection(
        importOpenApi({ document, baseUrl: PUBLIC_DOCUMENT }, { namespace: 'pub' }),
      );
      expect(error.code, host).toBe('CONFIG_INVALID');
      // and at connect time, for a tool config that says so
      const rest = provider({
        a: {
          description: 'a',
          method: 'GET',
          url: `http://${host}:${port}/a`,
          parametersSchema: { type: 'object' },
          publicAddressesOnly: true,
        },
      });
      const result = failure(await rest.execute('a', {}, createToolContext()));
      expect(result.error.code, host).toBe('DENIED');
    }
    expect(api.requests).toHaveLength(0);
  });

  it('asks no token endpoint on such a server for the client secret', async () => {
    const api = await server((_request, response) =>
      sendJson(response, 200, { access_token: 't', token_type: 'Bearer' }),
    );
    const port = new URL(api.origin).port;
    const document = minimal(
      { '/a': { get: { operationId: 'a', security: [{ oauth: [] }] } } },
      {
        servers: [{ url: `http://inward.example.net:${port}` }],
        components: {
          securitySchemes: {
            oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/token', scopes: {} } } },
          },
        },
      },
    );
    const { tools } = await importOpenApi({ document, baseUrl: PUBLIC_DOCUMENT }, { namespace: 'pub' });
    const env = { PUB_OAUTH_CLIENT_ID: 'id', PUB_OAUTH_CLIENT_SECRET: fakeSecret('secret') };
    const table = { 'inward.example.net': '127.0.0.1' };
    for (const extra of [{}, { dispatcher: tableAgent(table) }]) {
      const rest = provider(tools, { env, lookup: tableLookup(table), ...extra });
      const result = failure(await rest.execute('a', {}, createToolContext()));
      expect(result.error.code).toBe('DENIED');
      expect(result.error.message).toContain('inward.example.net resolves to 127.0.0.1');
    }
    // the token endpoint used to get the client id and secret before the API call was refused
    expect(api.requests).toHaveLength(0);
  });
});

describe('a resolver that never answers', () => {
  it('ends the call at its timeout instead of waiting for the lookup for ever', async () => {
    const api = await server();
    const { tools } = await importFrom(api, 'inward.example.net');
    const silent = () => undefined; // a DNS server that never answers
    const rest = provider(
      { a: { ...(tools.a as RestToolConfig), timeoutMs: 300 } },
      { dispatcher: tableAgent({ 'inward.example.net': '127.0.0.1' }), lookup: silent },
    );
    const result = failure(await rest.execute('a', {}, createToolContext()));
    expect(result.error.code).toBe('TIMEOUT');
    expect(api.requests).toHaveLength(0);
  });

  it('refuses a lookup option that is no function when the provider is created', () => {
    const error = thrown(() => createRestProvider({ namespace: 'p', tools: {}, lookup: 'dns' as never }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('lookup');
  });

  it('refuses it as an importer option too, before anything is read', async () => {
    const error = await rejection(
      importOpenApi({ document: minimal({}), baseUrl: PUBLIC_DOCUMENT }, { lookup: 42 as never }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('lookup');
  });
});

describe('documents a public document refers to', () => {
  it('are judged by the addresses lookup gives, the IPv6 forms that carry an inward IPv4 address included', async () => {
    const refs = await server((_request, response) => sendJson(response, 200, { type: 'string' }));
    const port = new URL(refs.origin).port;
    const document = minimal({
      '/a': {
        get: {
          operationId: 'a',
          parameters: [
            { name: 'q', in: 'query', schema: { $ref: `http://refs.example.net:${port}/s.json` } },
          ],
        },
      },
    });
    for (const address of ['127.0.0.1', '64:ff9b::7f00:1', '::ffff:7f00:1', '2002:7f00:1::1']) {
      const error = await rejection(
        importOpenApi(
          { document, baseUrl: PUBLIC_DOCUMENT },
          { namespace: 'pub', lookup: tableLookup({ 'refs.example.net': address }) },
        ),
      );
      // the importer's lookup was not asked, and a NAT64 or 6to4 form of 127.0.0.1 passed as public
      expect(error.code, address).toBe('CONFIG_INVALID');
      expect(error.message, address).toContain('resolves to a local or private address');
    }
    expect(refs.requests).toHaveLength(0);
  });
});
