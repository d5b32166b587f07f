import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import {
  createOpenApiProvider,
  createRestProvider,
  importOpenApi,
  readToolConfig,
  writeToolConfig,
} from '../../src/index.js';
import { minimal } from '../helpers/bad-input.js';
import { useCleanups } from '../helpers/fixtures.js';
import { echo, sendJson } from '../helpers/loopback.js';

const { server, defer } = useCleanups();

/** A temporary folder, removed after the test. */
async function folder(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'rest-openapi-relative-'));
  defer(() => rm(made, { recursive: true, force: true }));
  return made;
}

/** Writes `document` as JSON into a new folder and returns its path. */
async function documentFile(document: unknown): Promise<string> {
  const file = join(await folder(), 'shop.json');
  await writeFile(file, JSON.stringify(document));
  return file;
}

const shop = (servers: unknown, extra: Record<string, unknown> = {}) =>
  minimal(
    {
      '/pets': { get: { operationId: 'listPets' } },
      '/uploads': { post: { operationId: 'upload', servers: [{ url: 'files' }] } },
    },
    { servers, ...extra },
  );

describe('relative and scheme-relative servers', () => {
  it('imports a file with relative servers, its tools reading the origin from ${<PREFIX>_BASE_URL}', async () => {
    const api = await server();
    const file = await documentFile(shop([{ url: '/api' }]));
    const result = await importOpenApi(file, { namespace: 'shop' });
    expect(result.tools.listPets?.url).toBe('${SHOP_BASE_URL}/api/pets');
    // an operation's relative server is relative to the document's, as a URL would be
    expect(result.tools.upload?.url).toBe('${SHOP_BASE_URL}/api/files/uploads');
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'BASE_URL_REQUIRED',
        variable: 'SHOP_BASE_URL',
        server: '/api',
        tools: ['listPets', 'upload'],
      }),
    ]);
    expect(result.warnings[0]).toContain('set SHOP_BASE_URL to the API');

    // the written config records it; the first call says how to set it, and sends nothing
    const written = join(await folder(), 'shop.tools.yaml');
    await writeToolConfig(written, result.tools);
    const tools = await readToolConfig(written);
    const unset = createRestProvider({ namespace: 'shop', tools, env: {} });
    defer(() => unset.close());
    expect(unset.warnings()).toEqual([
      expect.stringContaining(
        'SHOP_BASE_URL is not set, and the url of tools listPets, upload starts with it',
      ),
    ]);
    const first = await unset.execute('listPets', {}, createToolContext());
    expect(first.ok ? undefined : first.error.code).toBe('CONFIG_INVALID');
    expect(first.ok ? '' : first.error.message).toContain(
      'its url starts with ${SHOP_BASE_URL}, the API\'s base URL, and SHOP_BASE_URL is not set; set SHOP_BASE_URL to the URL "/api/pets" goes after, such as https://api.example.com',
    );
    // a value that is no URL is named as such
    const wrong = createRestProvider({ namespace: 'shop', tools, env: { SHOP_BASE_URL: 'api.example.com' } });
    defer(() => wrong.close());
    const bad = await wrong.execute('listPets', {}, createToolContext());
    expect(bad.ok ? '' : bad.error.message).toContain('"api.example.com", not an absolute http(s) URL');

    const set = createRestProvider({ namespace: 'shop', tools, env: { SHOP_BASE_URL: api.origin } });
    defer(() => set.close());
    expect(set.warnings()).toEqual([]);
    expect((await set.execute('listPets', {}, createToolContext())).ok).toBe(true);
    expect((await set.execute('upload', {}, createToolContext())).ok).toBe(true);
    expect(api.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /api/pets',
      'POST /api/files/uploads',
    ]);
  });

  it('reads the base URL variable in an OpenAPI provider, whose warnings follow its env', async () => {
    const api = await server();
    const file = await documentFile(shop([{ url: '/' }]));
    const waiting = createOpenApiProvider(file, { namespace: 'shop', env: {} });
    defer(() => waiting.close());
    await waiting.start?.(AbortSignal.timeout(10_000));
    expect(waiting.imported()?.tools.listPets?.url).toBe('${SHOP_BASE_URL}/pets');
    expect(waiting.warnings().filter((line) => line.includes('SHOP_BASE_URL'))).toEqual([
      expect.stringContaining('set SHOP_BASE_URL to the URL "/pets" goes after'),
    ]);
    const ready = createOpenApiProvider(file, { namespace: 'shop', env: { SHOP_BASE_URL: api.origin } });
    defer(() => ready.close());
    await ready.start?.(AbortSignal.timeout(10_000));
    expect(ready.warnings().some((line) => line.includes('SHOP_BASE_URL'))).toBe(false);
    expect((await ready.execute('listPets', {}, createToolContext())).ok).toBe(true);
    expect(api.requests.map((request) => request.url)).toEqual(['/pets']);
  });

  it('gives a document without servers, and a Swagger 2.0 one without host, the variable too', async () => {
    const none = await importOpenApi(
      { document: { ...shop(undefined), servers: undefined } },
      { namespace: 'shop' },
    );
    expect(none.tools.listPets?.url).toBe('${SHOP_BASE_URL}/pets');
    const swagger = await importOpenApi(
      {
        document: {
          swagger: '2.0',
          info: { title: 'Shop', version: '1' },
          basePath: '/v2',
          paths: { '/pets': { get: { operationId: 'listPets' } } },
        },
      },
      { envPrefix: 'STORE' },
    );
    expect(swagger.tools.listPets?.url).toBe('${STORE_BASE_URL}/v2/pets');
    expect(swagger.diagnostics[0]).toMatchObject({
      code: 'BASE_URL_REQUIRED',
      variable: 'STORE_BASE_URL',
      server: '/v2',
    });
    // a security scheme whose default variable would be the base URL stops the import
    const clash = await importOpenApi(
      {
        document: shop([{ url: '/' }], {
          security: [{ base_url: [] }],
          components: { securitySchemes: { base_url: { type: 'apiKey', in: 'header', name: 'x-key' } } },
        }),
      },
      { namespace: 'shop' },
    ).catch((error: Error) => error);
    expect(clash).toBeInstanceOf(Error);
    expect((clash as Error).message).toContain('security scheme "base_url" reads as its credential');
  });

  it('takes https for a scheme-relative server of a file, and the scheme of a document fetched from a URL', async () => {
    const file = await documentFile(shop([{ url: '//api.example.test/v1/' }]));
    const fromFile = await importOpenApi(file);
    expect(fromFile.tools.listPets?.url).toBe('https://api.example.test/v1/pets');
    expect(fromFile.diagnostics).toEqual([]);
    // served over http: "//host" keeps the document's scheme, as a link in it would
    const api = await server((request, response) =>
      request.url === '/openapi.json'
        ? sendJson(response, 200, shop([{ url: `//${api.host}/v1` }]))
        : echo(request, response),
    );
    const fetched = await importOpenApi(`${api.origin}/openapi.json`);
    expect(fetched.tools.listPets?.url).toBe(`${api.origin}/v1/pets`);
    const rest = createRestProvider({ namespace: 'shop', tools: fetched.tools, env: {} });
    defer(() => rest.close());
    expect((await rest.execute('listPets', {}, createToolContext())).ok).toBe(true);
    expect(api.requests.map((request) => request.url)).toEqual(['/openapi.json', '/v1/pets']);
  });
});
