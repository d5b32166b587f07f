import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../src/index.js';
import { getTool, minimal, rejection, thrown } from './helpers/bad-input.js';
import { useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

describe('path templates with unmatched braces', () => {
  it('skips an imported operation whose path has a brace outside a {name}, and keeps the rest', async () => {
    const api = await server();
    const document = minimal(
      {
        '/a/{id': { get: { operationId: 'open' } },
        '/b/id}': { get: { operationId: 'close' } },
        '/c/{}': { get: { operationId: 'empty' } },
        '/d/{{x}}': {
          get: {
            operationId: 'doubled',
            parameters: [{ name: 'x', in: 'path', required: true, schema: { type: 'string' } }],
          },
        },
        '/e/{a}{b}': { get: { operationId: 'adjacent' } },
      },
      { servers: [{ url: api.origin }] },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'braces' });
    // they used to be imported and called with "{" and "}" sent raw in the path
    expect(Object.keys(tools)).toEqual(['adjacent']);
    for (const path of ['/a/{id', '/b/id}', '/c/{}', '/d/{{x}}'])
      expect(warnings.join('\n')).toContain(`${path}: tool`);
    expect(warnings.join('\n')).toContain('has a "{" or "}" outside a {name} placeholder');
  });

  it('refuses a hand-written url whose path has an unmatched brace when the provider is created', async () => {
    const api = await server();
    for (const path of ['/items/{id', '/items/id}', '/items/{}', '/items/{{id}}']) {
      const error = thrown(() => provider({ get: getTool(`${api.origin}${path}`) }));
      expect(error.code, path).toBe('CONFIG_INVALID');
      expect(error.message).toContain('outside a {name} placeholder');
    }
    expect(api.requests).toHaveLength(0);
  });
});

describe('servers on local or private addresses', () => {
  const from = 'https://public.example.com/openapi.json';
  const withServers = (servers: unknown[], operationServers?: unknown[]) =>
    minimal(
      { '/a': { get: { operationId: 'a', ...(operationServers ? { servers: operationServers } : {}) } } },
      { servers },
    );

  it('stops the import of a document from a public origin whose server is a local or private address', async () => {
    for (const url of [
      'http://169.254.169.254/latest',
      'http://10.0.0.5',
      'http://192.168.1.1:8080',
      'http://127.0.0.1:9',
      'http://localhost:3000',
      'http://[::1]/',
    ]) {
      // the model's calls (and the API key) used to go wherever the document pointed
      const error = await rejection(importOpenApi({ document: withServers([{ url }]), baseUrl: from }));
      expect(error.code, url).toBe('CONFIG_INVALID');
      expect(error.message).toContain(`server ${new URL(url).origin}`);
      expect(error.message).toContain('local or private address');
      expect(error.message).toContain('pass baseUrl');
    }
    // an operation's own server too
    const own = await rejection(
      importOpenApi({
        document: withServers([{ url: 'https://api.example.com' }], [{ url: 'http://10.1.2.3' }]),
        baseUrl: from,
      }),
    );
    expect(own.message).toContain('server http://10.1.2.3');
  });

  it('keeps public servers, a document from a local address, a local file, and a pinned baseUrl', async () => {
    const cases: [unknown, Record<string, unknown>][] = [
      [{ document: withServers([{ url: 'https://api.example.com:8443' }]), baseUrl: from }, {}],
      [{ document: withServers([{ url: 'http://10.0.0.5' }]), baseUrl: 'http://10.0.0.9/openapi.json' }, {}],
      [{ document: withServers([{ url: 'http://127.0.0.1:8080' }]) }, {}],
      [
        { document: withServers([{ url: 'http://10.0.0.5' }]), baseUrl: from },
        { baseUrl: 'http://10.0.0.5' },
      ],
    ];
    for (const [source, options] of cases) {
      const { tools } = await importOpenApi(source as Parameters<typeof importOpenApi>[0], {
        namespace: 's',
        ...options,
      });
      expect(Object.keys(tools), JSON.stringify(source)).toEqual(['a']);
    }
  });
});

describe('enormous enums', () => {
  it('leaves an enum of more than 256 values out of the input schema, says so, and keeps short ones', async () => {
    const huge = Array.from({ length: 100_000 }, (_, index) => `value-${index}`);
    const document = minimal({
      '/a': {
        get: {
          operationId: 'a',
          parameters: [
            { name: 'huge', in: 'query', schema: { type: 'string', enum: huge } },
            { name: 'short', in: 'query', schema: { type: 'string', enum: ['x', 'y'] } },
          ],
        },
      },
    });
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'enums' });
    const properties = tools.a?.parametersSchema.properties as Record<string, Record<string, unknown>>;
    // the whole list used to go into the schema the model is shown: 1.4 MB for this one argument
    expect(JSON.stringify(tools.a?.parametersSchema).length).toBeLessThan(2000);
    expect(properties.huge?.enum).toBeUndefined();
    expect(properties.huge?.type).toBe('string');
    expect(properties.huge?.description).toContain('One of 100000 values');
    expect(properties.short?.enum).toEqual(['x', 'y']);
    expect(warnings.join('\n')).toContain('1 enum of more than 256 values was left out');
  });
});

describe('security requirements of the wrong shape', () => {
  it('names a requirement that is no object instead of skipping the operation with a TypeError', async () => {
    const document = minimal(
      { '/a': { get: { operationId: 'a', security: [null, 5, { key: [] }] } } },
      { components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } } },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'shapes' });
    // the operation used to be skipped: "Cannot convert undefined or null to object"
    expect(tools.a?.auth).toEqual({ type: 'apiKey', in: 'header', name: 'X-Key', value: '${SHAPES_KEY}' });
    expect(warnings.join('\n')).not.toContain('Cannot convert');
    const none = await importOpenApi(
      { document: minimal({ '/a': { get: { operationId: 'a', security: [null] } } }) },
      { namespace: 'shapes' },
    );
    expect(Object.keys(none.tools)).toEqual(['a']);
    expect(none.warnings).toEqual([
      'GET /a: a security requirement is not an object of scheme names; calls go without credentials',
    ]);
  });
});

describe('a security that is no list of requirements', () => {
  const schemes = {
    components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
  };

  it('names each operation whose own security is a string, a number or an object', async () => {
    const document = minimal(
      {
        '/s': { get: { operationId: 's', security: 'key' } },
        '/n': { get: { operationId: 'n', security: 5 } },
        '/o': { get: { operationId: 'o', security: { key: [] } } },
        '/fine': { get: { operationId: 'fine', security: [{ key: [] }] } },
      },
      schemes,
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'shapes' });
    expect(Object.keys(tools)).toEqual(['s', 'n', 'o', 'fine']);
    // they used to be imported without credentials, and without a word
    expect(warnings).toEqual([
      'GET /s: its security is a string, not a list of requirements; calls go without credentials',
      'GET /n: its security is a number, not a list of requirements; calls go without credentials',
      'GET /o: its security is an object, not a list of requirements; calls go without credentials',
    ]);
    expect(tools.s?.auth).toBeUndefined();
    expect(tools.fine?.auth).toMatchObject({ type: 'apiKey', name: 'X-Key' });
  });

  it("falls back to the document's security with a warning when an operation's own is malformed", async () => {
    const document = minimal(
      { '/a': { get: { operationId: 'a', security: 'key' } } },
      {
        ...schemes,
        security: [{ key: [] }],
      },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'shapes' });
    expect(tools.a?.auth).toMatchObject({ type: 'apiKey', name: 'X-Key' });
    expect(warnings).toEqual([
      "GET /a: its security is a string, not a list of requirements; the document's security is used",
    ]);
  });

  it('names the operations left without credentials by a malformed document security', async () => {
    for (const security of ['key', 7, { key: [] }]) {
      const document = minimal(
        {
          '/a': { get: { operationId: 'a' } },
          '/b': { get: { operationId: 'b' } },
          '/own': { get: { operationId: 'own', security: [{ key: [] }] } },
        },
        { ...schemes, security },
      );
      const { tools, warnings } = await importOpenApi({ document }, { namespace: 'shapes' });
      expect(Object.keys(tools)).toEqual(['a', 'b', 'own']);
      expect(tools.own?.auth).toMatchObject({ type: 'apiKey' });
      expect(warnings.join('\n'), JSON.stringify(security)).toMatch(
        /^GET \/a and 1 more: the document's security is (a string|a number|an object), not a list of requirements; calls go without credentials$/,
      );
    }
  });
});

describe('required scopes that are no list', () => {
  it("skips the operation naming the document's requirement, not a field of the tool config", async () => {
    const oauth2 = {
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: 'https://api.example.test/token', scopes: { read: 'r' } } },
    };
    const document = minimal(
      {
        '/a': { get: { operationId: 'a', security: [{ oauth: 'read' }] } },
        '/b': { get: { operationId: 'b', security: [{ oauth: ['read'] }] } },
        '/k': { get: { operationId: 'k', security: [{ key: 'x' }] } },
      },
      {
        components: {
          securitySchemes: { oauth: oauth2, key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
        },
      },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'scopes' });
    expect(Object.keys(tools)).toEqual(['b', 'k']);
    // it used to say 'REST tool "a": auth.scopes must be a list of strings', a field nobody wrote
    expect(warnings).toEqual([
      'skipped GET /a: security scheme "oauth" lists the scopes it requires as a string, not a list of scope names',
    ]);
    expect(tools.b?.auth).toMatchObject({ type: 'oauth2-client-credentials', scopes: ['read'] });
    // an API key takes no scopes: what the requirement lists does not matter
    expect(tools.k?.auth).toMatchObject({ type: 'apiKey', name: 'X-Key' });
  });
});
