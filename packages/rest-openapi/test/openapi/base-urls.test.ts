import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type ImportResult, createRestProvider, importOpenApi } from '../../src/index.js';
import { minimal, rejection } from '../helpers/bad-input.js';
import { fakeSecret, useCleanups } from '../helpers/fixtures.js';

const { server, defer } = useCleanups();

/** Calls every imported tool once, with `env` as the environment; `args` per tool name. */
async function callAll(
  result: ImportResult,
  env: Record<string, string>,
  args: Record<string, Record<string, unknown>> = {},
) {
  const rest = createRestProvider({ namespace: 'base', tools: result.tools, env, timeoutMs: 5_000 });
  defer(() => rest.close());
  for (const name of Object.keys(result.tools))
    await rest.execute(name, args[name] ?? {}, createToolContext());
}

const swagger = (extra: Record<string, unknown>) => ({
  swagger: '2.0',
  info: { title: 'Test', version: '1' },
  schemes: ['http'],
  paths: { '/pets': { get: { operationId: 'listPets' } } },
  ...extra,
});

describe('base URLs from the document', () => {
  it('never reads the environment for ${...} written in a document path', async () => {
    const secret = fakeSecret('token');
    const api = await server();
    const document = minimal(
      { '/pets/${API_TOKEN}': { get: { operationId: 'leak' } }, '/pets': { get: { operationId: 'fine' } } },
      { servers: [{ url: api.origin }] },
    );
    const result = await importOpenApi({ document });
    expect(Object.keys(result.tools)).toEqual(['fine']);
    expect(result.warnings.join('\n')).toContain('skipped GET /pets/${API_TOKEN}: the path holds ${...}');
    await callAll(result, { API_TOKEN: secret }, { leak: { API_TOKEN: 'x' } });
    // the document's server never receives GET /pets/<the value of API_TOKEN>
    expect(api.requests.map((request) => request.url)).toEqual(['/pets']);
    expect(JSON.stringify(api.requests)).not.toContain(secret);
  });

  it('checks a Swagger 2.0 host and basePath: host[:port] only, a path without query', async () => {
    const secret = fakeSecret('token');
    const api = await server();
    // taken as written, the host would send the call to /<the value of API_TOKEN>?/v1/pets
    const leaking = await rejection(
      importOpenApi({ document: swagger({ host: `${api.host}/\${API_TOKEN}?`, basePath: '/v1' }) }),
    );
    expect(leaking.code).toBe('CONFIG_INVALID');
    expect(leaking.message).toContain('host');
    const query = await rejection(
      importOpenApi({ document: swagger({ host: api.host, basePath: '/v1?debug=1' }) }),
    );
    expect(query.code).toBe('CONFIG_INVALID');
    expect(query.message).toContain('basePath');
    // a basePath without its leading "/" is a path, not glued to the host (here: another port)
    const glued = await importOpenApi({
      document: swagger({ host: '127.0.0.1', basePath: `:${api.host.split(':')[1]}/x` }),
    });
    expect(glued.tools.listPets?.url).toBe(`http://127.0.0.1/:${api.host.split(':')[1]}/x/pets`);
    // a path after the host, which the specification does not allow, still means what it says
    const withPath = await importOpenApi({
      document: swagger({ host: 'api.example.test/v2', basePath: '/beta' }),
    });
    expect(withPath.tools.listPets?.url).toBe('http://api.example.test/v2/beta/pets');
    const fine = await importOpenApi({ document: swagger({ host: api.host, basePath: '/v1' }) });
    await callAll(fine, { API_TOKEN: secret });
    expect(api.requests.map((request) => request.url)).toEqual(['/v1/pets']);
  });

  it('refuses a server URL with a query or fragment instead of putting paths after it', async () => {
    const api = await server();
    for (const url of [`${api.origin}/v1?key=1`, `${api.origin}/v1#top`]) {
      const document = minimal({ '/pets': { get: { operationId: 'listPets' } } }, { servers: [{ url }] });
      // paths after the query one would call GET /v1?key=1/pets
      const error = await rejection(importOpenApi({ document }));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('query or fragment');
    }
    expect(api.requests).toHaveLength(0);
  });

  it('never reads the environment for ${...} written in a document OAuth2 tokenUrl', async () => {
    const secret = fakeSecret('secret');
    const tokens = await server();
    const api = await server();
    const document = minimal(
      { '/pets': { get: { operationId: 'listPets', security: [{ oauth: [] }] } } },
      {
        servers: [{ url: api.origin }],
        components: {
          securitySchemes: {
            oauth: {
              type: 'oauth2',
              flows: { clientCredentials: { tokenUrl: `${tokens.origin}/token/\${CLOUD_KEY}`, scopes: {} } },
            },
          },
        },
      },
    );
    const result = await importOpenApi({ document }, { namespace: 'pets' });
    expect(result.warnings.join('\n')).toContain('tokenUrl holds ${...}');
    await callAll(result, { CLOUD_KEY: secret, PETS_OAUTH_CLIENT_ID: 'id', PETS_OAUTH_CLIENT_SECRET: 'x' });
    // the token endpoint never receives POST /token/<the value of CLOUD_KEY>
    expect(JSON.stringify(tokens.requests)).not.toContain(secret);
    expect(tokens.requests).toHaveLength(0);
  });

  it('refuses a document URL with user info, without repeating it or sending anything', async () => {
    const secret = fakeSecret('password');
    const api = await server();
    const document = minimal(
      { '/pets': { get: { operationId: 'listPets' } } },
      { servers: [{ url: '/api' }] },
    );
    const url = `http://user:${secret}@${api.host}/openapi.json`;
    for (const source of [url, { document, baseUrl: url }]) {
      // accepted, the password would go into every tool url (and so into written tool config
      // files) and into error messages
      const error = await rejection(importOpenApi(source));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('holds user info, which is not sent');
      expect(error.message).not.toContain(secret);
    }
    // the baseUrl option too: it would be written into every tool url
    const option = await rejection(
      importOpenApi({ document }, { baseUrl: `https://user:${secret}@api.example.test` }),
    );
    expect(option.code).toBe('CONFIG_INVALID');
    expect(option.message).toContain('baseUrl must not hold user info');
    expect(option.message).not.toContain(secret);
    const typed = await rejection(importOpenApi({ document, baseUrl: 5 as unknown as string }));
    expect(typed.message).toContain('{ baseUrl } must be a URL string');
    expect(api.requests).toHaveLength(0);
  });

  it('does not send an operation with servers of its own to them when the chosen server is not among them', async () => {
    const production = await server();
    const staging = await server();
    const document = minimal(
      {
        '/pets': { get: { operationId: 'listPets' } },
        '/uploads': { post: { operationId: 'upload', servers: [{ url: `${production.origin}/files` }] } },
        '/both': {
          get: {
            operationId: 'both',
            servers: [{ url: `${production.origin}/both` }, { url: `${staging.origin}/both` }],
          },
        },
      },
      { servers: [{ url: production.origin }, { url: staging.origin }] },
    );
    for (const server of [staging.origin, 1]) {
      const result = await importOpenApi({ document }, { server });
      // the upload never goes to production, the server the operator did not choose
      expect(Object.keys(result.tools).sort()).toEqual(['both', 'listPets']);
      expect(result.warnings.join('\n')).toContain(
        `skipped POST /uploads: it has servers of its own (${production.origin}/files) and the chosen server ${JSON.stringify(server)} is not among them`,
      );
      await callAll(result, {});
    }
    expect(production.requests).toHaveLength(0);
    expect(staging.requests.map((request) => `${request.method} ${request.url}`).sort()).toEqual([
      'GET /both/both',
      'GET /both/both',
      'GET /pets',
      'GET /pets',
    ]);
    // without a choice, an operation's own first server is used, as the specification says
    const first = await importOpenApi({ document });
    expect(first.tools.upload?.url).toBe(`${production.origin}/files/uploads`);
  });

  it('refuses "." and ".." segments and broken hosts in a url as configuration errors, not arguments', async () => {
    const api = await server();
    const document = minimal(
      {
        '/v1/../admin': { get: { operationId: 'dots' } },
        '/pets': { get: { operationId: 'listPets' } },
      },
      { servers: [{ url: api.origin }] },
    );
    const result = await importOpenApi({ document });
    // imported, every call would fail with INVALID_ARGUMENTS blaming an argument
    expect(Object.keys(result.tools)).toEqual(['listPets']);
    expect(result.warnings.join('\n')).toContain('skipped GET /v1/../admin');
    expect(result.warnings.join('\n')).toContain('has a "." or ".." segment');
    const broken = minimal(
      { '/pets': { get: { operationId: 'listPets' } } },
      { servers: [{ url: 'https://exa mple.test' }] },
    );
    // an operation on an invalid host is skipped too: every call would fail
    const none = await importOpenApi({ document: broken });
    expect(none.tools).toEqual({});
    expect(none.warnings.join('\n')).toContain('url host "exa mple.test" is not valid');

    const rest = createRestProvider({
      namespace: 'hand',
      tools: {
        dots: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/v1/../admin`,
          parametersSchema: { type: 'object' },
        },
      },
      env: {},
    });
    defer(() => rest.close());
    const call = await rest.execute('dots', {}, createToolContext());
    expect(call.ok).toBe(false);
    if (!call.ok) {
      expect(call.error.code).toBe('CONFIG_INVALID');
      expect(call.error.message).toContain('has a "." or ".." segment');
    }
    expect(api.requests).toHaveLength(0);
  });
});
