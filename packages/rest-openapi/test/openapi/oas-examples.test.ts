import { compileSchema, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRestProvider, importOpenApi } from '../../src/index.js';
import { allExamples, example } from '../helpers/examples.js';
import { fakeSecret, useCleanups } from '../helpers/fixtures.js';

const { server, defer } = useCleanups();

describe('OpenAPI examples of @readme/oas-examples', () => {
  for (const version of ['2.0', '3.0', '3.1'] as const) {
    it(`imports every ${version} example and every input schema compiles`, async () => {
      let total = 0;
      for (const path of allExamples(version)) {
        const { tools } = await importOpenApi(path, {
          namespace: 'example',
          baseUrl: 'https://api.example.test',
          // the security examples send OAuth2 client credentials to other hosts
          allowedTokenOrigins: ['http://example.com', 'http://alt.example.com'],
        });
        for (const [name, tool] of Object.entries(tools)) {
          expect(() => compileSchema(tool.parametersSchema), `${path} ${name}`).not.toThrow();
          // the config is plain JSON: no cycles, so it can be written to a file
          expect(() => JSON.stringify(tool), `${path} ${name}`).not.toThrow();
          total++;
        }
      }
      expect(total).toBeGreaterThan(version === '2.0' ? 25 : 100);
    });
  }

  for (const version of ['2.0', '3.0', '3.1'] as const) {
    it(`calls the ${version} petstore operations with the right method, path, query, headers and body`, async () => {
      const api = await server();
      const apiKey = fakeSecret('key');
      const { tools, info } = await importOpenApi(example(version, 'petstore.json'), {
        namespace: 'petstore',
        baseUrl: `${api.origin}/v2`,
      });
      expect(info.specification).toBe(version);
      const rest = createRestProvider({ namespace: 'petstore', tools, env: { PETSTORE_API_KEY: apiKey } });
      defer(() => rest.close());
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await rest.execute(name, args, createToolContext());
        if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
        return api.requests.at(-1);
      };
      const byStatus = await call('findPetsByStatus', { status: ['available', 'pending'] });
      expect(byStatus?.method).toBe('GET');
      expect(byStatus?.url).toBe('/v2/pet/findByStatus?status=available&status=pending');

      const byId = await call('getPetById', { petId: 42 });
      expect(byId?.url).toBe('/v2/pet/42');
      expect(byId?.headers.api_key).toBe(apiKey);

      const added = await call('addPet', {
        body: { name: 'doggie', photoUrls: ['https://example.test/p.png'], status: 'available' },
      });
      expect(added?.method).toBe('POST');
      expect(added?.url).toBe('/v2/pet');
      expect(added?.headers['content-type']).toMatch(/json/);
      expect(JSON.parse(added?.body ?? '')).toMatchObject({ name: 'doggie', status: 'available' });

      const deleted = await call('deletePet', { petId: 7, api_key: 'header-value' });
      expect(deleted?.method).toBe('DELETE');
      expect(deleted?.url).toBe('/v2/pet/7');
      expect(deleted?.headers.api_key).toBe('header-value');

      if (tools.updatePetWithForm) {
        const form = await call('updatePetWithForm', {
          petId: 7,
          body: { name: 'Rex the 2nd', status: 'sold' },
        });
        expect(form?.method).toBe('POST');
        expect(form?.url).toBe('/v2/pet/7');
        expect(form?.headers['content-type']).toBe('application/x-www-form-urlencoded');
        expect(form?.body).toBe('name=Rex%20the%202nd&status=sold');
      }

      const invalid = await rest.execute('getPetById', { petId: 'not-a-number' }, createToolContext());
      expect(invalid.ok === false && invalid.error.code).toBe('INVALID_ARGUMENTS');
      const unknown = await rest.execute('getPetById', { petId: 1, extra: true }, createToolContext());
      expect(unknown.ok === false && unknown.error.message).toContain('extra');
    });
  }

  it('reads YAML the same as JSON', async () => {
    const fromJson = await importOpenApi(example('3.0', 'petstore.json'), { baseUrl: 'https://x.test' });
    const fromYaml = await importOpenApi(example('3.0', 'petstore.yaml'), { baseUrl: 'https://x.test' });
    expect(fromYaml.tools).toEqual(fromJson.tools);
  });

  for (const version of ['3.0', '3.1'] as const) {
    it(`serializes every ${version} parameter style as the document says`, async () => {
      const api = await server();
      const { tools } = await importOpenApi(example(version, 'parameters-style.json'), {
        baseUrl: api.origin,
      });
      const rest = createRestProvider({ namespace: 'styles', tools, env: {} });
      defer(() => rest.close());
      const values = {
        primitive: 'blue',
        array: ['blue', 'black', 'brown'],
        object: { R: 100, G: 200, B: 150 },
      };
      const call = async (name: string, args: Record<string, unknown> = values) => {
        const result = await rest.execute(name, args, createToolContext());
        if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
        return api.requests.at(-1);
      };
      expect((await call('paths_matrix_exploded'))?.url).toBe(
        '/anything/path/matrix/;primitive=blue/;array=blue;array=black;array=brown/;R=100;G=200;B=150',
      );
      expect((await call('paths_label_nonExploded'))?.url).toBe(
        '/anything/path/label/.blue/.blue,black,brown/.R,100,G,200,B,150',
      );
      expect((await call('paths_simple_exploded'))?.url).toBe(
        '/anything/path/simple/blue/blue,black,brown/R=100,G=200,B=150',
      );
      expect((await call('query_form_nonExploded'))?.url).toBe(
        '/anything/query/form?primitive=blue&array=blue,black,brown&object=R,100,G,200,B,150',
      );
      expect((await call('query_form_exploded'))?.url).toBe(
        '/anything/query/form?primitive=blue&array=blue&array=black&array=brown&R=100&G=200&B=150',
      );
      expect((await call('query_pipeDelimited_nonExploded', { array: values.array }))?.url).toBe(
        '/anything/query/pipeDelimited?array=blue|black|brown',
      );
      expect((await call('query_spaceDelimited_nonExploded', { array: values.array }))?.url).toBe(
        '/anything/query/spaceDelimited?array=blue%20black%20brown',
      );
      expect((await call('query_deepObject_nonExploded', { object: values.object }))?.url).toBe(
        '/anything/query/deepObject?object[R]=100&object[G]=200&object[B]=150',
      );
      const headers = (await call('headers_simple_exploded'))?.headers;
      expect(headers).toMatchObject({
        primitive: 'blue',
        array: 'blue,black,brown',
        object: 'R=100,G=200,B=150',
      });
      expect((await call('cookies_form_exploded'))?.headers.cookie).toBe(
        'primitive=blue; array=blue; array=black; array=brown; R=100; G=200; B=150',
      );
      expect((await call('cookies_form_nonExploded'))?.headers.cookie).toBe(
        'primitive=blue; array=blue,black,brown; object=R,100,G,200,B,150',
      );
    });
  }

  for (const version of ['2.0', '3.0'] as const) {
    it(`keeps circular ${version} schemas as definitions that compile and validate`, async () => {
      const { tools } = await importOpenApi(example(version, 'schema-circular.json'), {
        baseUrl: 'https://x.test',
      });
      const recursive = Object.values(tools).filter(
        (tool) => tool.parametersSchema.definitions !== undefined,
      );
      expect(recursive.length).toBeGreaterThan(0);
      for (const tool of recursive) {
        const text = JSON.stringify(tool.parametersSchema);
        expect(text).toContain('"$ref":"#/definitions/');
        const compiled = compileSchema(tool.parametersSchema);
        expect(compiled.validate({ body: 'not an object' }).valid).toBe(false);
      }
    });
  }

  it('fills server variables from defaults or options and checks enums', async () => {
    const path = example('3.0', 'server-variables.json');
    const defaults = await importOpenApi(path);
    expect(Object.values(defaults.tools).map((tool) => tool.url)).toContain(
      'https://demo.example.com:443/v2/global',
    );
    const chosen = await importOpenApi(path, { serverVariables: { name: 'acme', basePath: 'v9' } });
    expect(Object.values(chosen.tools).map((tool) => tool.url)).toContain(
      'https://acme.example.com:443/v9/global',
    );
    const third = await importOpenApi(path, { server: 2, serverVariables: { port: '5000' } });
    expect(Object.values(third.tools).map((tool) => tool.url)).toContain(
      'https://demo.readme.io:5000/v1/global',
    );
    await expect(
      importOpenApi(path, { server: 2, serverVariables: { port: '4000' }, strict: true }),
    ).rejects.toThrow(/not one of "3000", "5000"/);
  });

  it('takes no tools from callbacks or webhooks', async () => {
    const callbacks = await importOpenApi(example('3.0', 'callbacks.json'), { baseUrl: 'https://x.test' });
    expect(Object.keys(callbacks.tools)).toEqual(['post_streams']);
    const webhooks = await importOpenApi(example('3.1', 'webhooks.json'));
    expect(webhooks.tools).toEqual({});
  });

  it('maps security schemes to credentials from the environment', async () => {
    const api = await server();
    const { tools } = await importOpenApi(example('3.0', 'security.json'), {
      namespace: 'sec',
      baseUrl: api.origin,
      allowedTokenOrigins: ['http://example.com', 'http://alt.example.com'],
    });
    const auth = (name: string) => tools[name]?.auth;
    expect(auth('get_anything_apiKey')).toBeDefined();
    const env = {
      SEC_APIKEY_QUERY: fakeSecret('q'),
      SEC_APIKEY_COOKIE: fakeSecret('c'),
      SEC_APIKEY_HEADER: fakeSecret('h'),
      SEC_BASIC_USERNAME: 'user',
      SEC_BASIC_PASSWORD: fakeSecret('p'),
      SEC_BEARER: fakeSecret('b'),
    };
    const rest = createRestProvider({ namespace: 'sec', tools, env });
    defer(() => rest.close());
    const called = new Map<string, Record<string, unknown>>();
    for (const name of Object.keys(tools)) {
      const before = api.requests.length;
      await rest.execute(name, {}, createToolContext());
      const request = api.requests[before];
      if (request) called.set(name, { url: request.url, ...request.headers });
    }
    const seen = [...called.values()].map((request) => JSON.stringify(request));
    expect(seen.some((text) => text.includes(`apiKey=${env.SEC_APIKEY_QUERY}`))).toBe(true);
    expect(seen.some((text) => text.includes(`api_key=${env.SEC_APIKEY_COOKIE}`))).toBe(true);
    expect(seen.some((text) => text.includes(env.SEC_APIKEY_HEADER))).toBe(true);
    expect(seen.some((text) => text.includes(`Bearer ${env.SEC_BEARER}`))).toBe(true);
    expect(
      seen.some((text) =>
        text.includes(`Basic ${Buffer.from(`user:${env.SEC_BASIC_PASSWORD}`).toString('base64')}`),
      ),
    ).toBe(true);
  });

  it('filters by tag, method, path pattern and operationId, and trims descriptions', async () => {
    const path = example('3.0', 'petstore.json');
    const store = await importOpenApi(path, { include: { tags: ['store'] } });
    expect(Object.keys(store.tools).sort()).toEqual([
      'deleteOrder',
      'getInventory',
      'getOrderById',
      'placeOrder',
    ]);
    const noDelete = await importOpenApi(path, { exclude: { methods: ['delete'] } });
    expect(Object.values(noDelete.tools).some((tool) => tool.method === 'DELETE')).toBe(false);
    const petPaths = await importOpenApi(path, { include: { paths: ['/pet/*'] } });
    expect(Object.values(petPaths.tools).every((tool) => /\/pet\/[^/]+$/.test(tool.url))).toBe(true);
    const deep = await importOpenApi(path, { include: { paths: ['/pet/**'] } });
    expect(Object.keys(deep.tools)).toContain('uploadFile');
    const gets = await importOpenApi(path, { include: { operationIds: [/^get/], methods: ['GET'] } });
    expect(Object.keys(gets.tools).every((name) => name.startsWith('get'))).toBe(true);
    const short = await importOpenApi(path, { maxDescriptionLength: 40 });
    for (const tool of Object.values(short.tools)) expect(tool.description.length).toBeLessThanOrEqual(40);
  });
});
