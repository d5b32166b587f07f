import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { rejection } from '../helpers/bad-input.js';
import { example } from '../helpers/examples.js';

const minimal = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 'Test', version: '1' },
  servers: [{ url: 'https://api.example.test' }],
  paths,
  ...extra,
});

describe('bad OpenAPI input', () => {
  it('reports truncated JSON, broken YAML, non-OpenAPI objects and missing files as CONFIG_INVALID', async () => {
    const text = await readFile(example('3.0', 'petstore.json'), 'utf8');
    const truncated = await rejection(importOpenApi({ text: text.slice(0, Math.floor(text.length / 2)) }));
    expect(truncated.code).toBe('CONFIG_INVALID');
    expect(truncated.message).toMatch(/not valid JSON .*complete/);
    const yaml = await rejection(importOpenApi({ text: 'openapi: 3.0.0\npaths:\n  /a: [unclosed\n' }));
    expect(yaml.code).toBe('CONFIG_INVALID');
    expect(yaml.message).toContain('not valid YAML');
    const notOpenApi = await rejection(importOpenApi({ document: { hello: 'world' } }));
    expect(notOpenApi.message).toContain('is it an OpenAPI document');
    const future = await rejection(importOpenApi({ document: { openapi: '4.0.0', paths: {} } }));
    expect(future.message).toContain('supported are 3.0.x, 3.1.x and Swagger 2.0');
    const missing = await rejection(importOpenApi(join(tmpdir(), 'no-such-openapi-document.yaml')));
    expect(missing.message).toContain('cannot read');
    const scalar = await rejection(importOpenApi({ text: '42' }));
    expect(scalar.message).toContain('must be a JSON or YAML object');
  });

  it('skips operations with unresolvable $refs with a warning, or throws in strict mode', async () => {
    const document = minimal({
      '/good': { get: { operationId: 'good', responses: {} } },
      '/bad': {
        post: {
          operationId: 'bad',
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } },
          },
          responses: {},
        },
      },
      '/bad-param': {
        get: {
          operationId: 'badParam',
          parameters: [{ $ref: '#/components/parameters/Nope' }],
          responses: {},
        },
      },
    });
    const result = await importOpenApi({ document });
    expect(Object.keys(result.tools)).toEqual(['good']);
    expect(result.warnings.join('\n')).toContain('#/components/schemas/Missing');
    expect(result.warnings.join('\n')).toContain('#/components/parameters/Nope');
    const strict = await rejection(importOpenApi({ document }, { strict: true }));
    expect(strict.code).toBe('CONFIG_INVALID');
    expect(strict.message).toContain('does not resolve');
  });

  it('names operations without ids from method and path, and suffixes duplicate names', async () => {
    const document = minimal({
      '/users/{id}/repos': { get: { responses: {} }, post: { operationId: 'same', responses: {} } },
      '/other': {
        put: { operationId: 'same', responses: {} },
        delete: { operationId: 'same', responses: {} },
      },
    });
    const result = await importOpenApi({ document });
    expect(Object.keys(result.tools)).toEqual(['get_users_by_id_repos', 'same', 'same_2', 'same_3']);
    expect(result.tools.same_2?.operationId).toBe('same');
    expect(result.warnings.join('\n')).toContain('has no operationId');
    expect(result.warnings.join('\n')).toContain('already taken; named it same_2');
    const strict = await rejection(importOpenApi({ document }, { strict: true }));
    expect(strict.message).toContain('used twice');
  });

  it('reads the base URL of relative servers of a document from no URL from ${<PREFIX>_BASE_URL}', async () => {
    const result = await importOpenApi({
      document: {
        ...minimal({ '/a': { get: { operationId: 'a', responses: {} } } }),
        servers: [{ url: '/v1' }],
      },
    });
    expect(result.tools.a?.url).toBe('${API_BASE_URL}/v1/a');
    expect(result.diagnostics).toMatchObject([
      { code: 'BASE_URL_REQUIRED', variable: 'API_BASE_URL', server: '/v1', tools: ['a'] },
    ]);
    expect(result.warnings[0]).toContain('set API_BASE_URL to');
    const fixed = await importOpenApi(
      {
        document: {
          ...minimal({ '/a': { get: { operationId: 'a', responses: {} } } }),
          servers: [{ url: '/v1' }],
        },
      },
      { baseUrl: 'https://api.example.test/v1' },
    );
    expect(fixed.tools.a?.url).toBe('https://api.example.test/v1/a');
    expect(fixed.diagnostics).toEqual([]);
  });

  it('refuses to build a request from an imported tool when a path argument tries to escape', async () => {
    const { createRestProvider } = await import('../../src/index.js');
    const { startLoopback, echo } = await import('../helpers/loopback.js');
    const api = await startLoopback(echo);
    const evil = await startLoopback(echo);
    try {
      const { tools } = await importOpenApi(example('3.0', 'petstore.json'), { baseUrl: `${api.origin}/v2` });
      const rest = createRestProvider({ namespace: 'p', tools, env: {} });
      for (const username of [
        '../../admin',
        '..',
        '%2e%2e',
        `@${evil.host}`,
        'x?admin=1',
        'x#y',
        'a\r\nHost: evil',
      ]) {
        await rest.execute('getUserByName', { username }, createToolContext());
      }
      await rest.close();
      expect(evil.requests).toHaveLength(0);
      for (const request of api.requests) expect(request.url).toMatch(/^\/v2\/user\/[^/?#]+$/);
      expect(api.requests).toHaveLength(6);
    } finally {
      await api.close();
      await evil.close();
    }
  });

  it('bundles external $refs to other files with json-schema-ref-parser, and reports a missing one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'rest-openapi-'));
    try {
      await writeFile(
        join(folder, 'pet.yaml'),
        'type: object\nrequired: [name]\nproperties:\n  name: { type: string }\n  tag: { type: string, nullable: true }\n',
      );
      const document = minimal({
        '/pets': {
          post: {
            operationId: 'addPet',
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: './pet.yaml' } } },
            },
            responses: {},
          },
        },
      });
      await writeFile(join(folder, 'api.json'), JSON.stringify(document));
      const { tools } = await importOpenApi(join(folder, 'api.json'));
      const properties = tools.addPet?.parametersSchema.properties as
        | Record<string, Record<string, unknown>>
        | undefined;
      const body = properties?.body;
      expect(body).toMatchObject({
        type: 'object',
        required: ['name'],
        properties: { tag: { type: ['string', 'null'] } },
      });
      await writeFile(
        join(folder, 'broken.json'),
        JSON.stringify(
          minimal({
            '/x': { get: { operationId: 'x', parameters: [{ $ref: './nope.yaml' }], responses: {} } },
          }),
        ),
      );
      const error = await rejection(importOpenApi(join(folder, 'broken.json')));
      expect(error.message).toContain('external $ref');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('importer details', () => {
  it('merges path-level and operation-level parameters, the operation winning', async () => {
    const document = minimal({
      '/items/{id}': {
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            schema: { type: 'string' },
            description: 'from the path item',
          },
          { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
        ],
        get: {
          operationId: 'getItem',
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              schema: { type: 'integer', minimum: 1 },
              description: 'from the operation',
            },
          ],
          responses: {},
        },
      },
    });
    const { tools } = await importOpenApi({ document });
    const schema = tools.getItem?.parametersSchema as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(schema.properties.id).toEqual({ type: 'integer', minimum: 1, description: 'from the operation' });
    expect(schema.properties.verbose).toEqual({ type: 'boolean' });
    expect(schema.required).toEqual(['id']);
  });

  it('maps OAuth2 client credentials (3.x and Swagger 2.0) to environment templates or given credentials', async () => {
    const v3 = minimal(
      { '/me': { get: { operationId: 'me', security: [{ machine: ['read'] }], responses: {} } } },
      {
        components: {
          securitySchemes: {
            machine: {
              type: 'oauth2',
              flows: {
                clientCredentials: { tokenUrl: 'https://auth.example.test/token', scopes: { read: 'r' } },
              },
            },
          },
        },
      },
    );
    const allowedTokenOrigins = ['https://auth.example.test'];
    const fromEnv = await importOpenApi({ document: v3 }, { namespace: 'acme', allowedTokenOrigins });
    expect(fromEnv.tools.me?.auth).toEqual({
      type: 'oauth2-client-credentials',
      tokenUrl: 'https://auth.example.test/token',
      clientId: '${ACME_MACHINE_CLIENT_ID}',
      clientSecret: '${ACME_MACHINE_CLIENT_SECRET}',
      scopes: ['read'],
    });
    const given = await importOpenApi(
      { document: v3 },
      { allowedTokenOrigins, credentials: { machine: { clientId: 'id-1', clientSecret: '${MY_SECRET}' } } },
    );
    expect(given.tools.me?.auth).toMatchObject({ clientId: 'id-1', clientSecret: '${MY_SECRET}' });
    const v2 = {
      swagger: '2.0',
      info: { title: 't', version: '1' },
      host: 'api.example.test',
      basePath: '/v1',
      schemes: ['https'],
      securityDefinitions: {
        app: { type: 'oauth2', flow: 'application', tokenUrl: 'https://auth.example.test/t', scopes: {} },
      },
      security: [{ app: [] }],
      paths: { '/me': { get: { operationId: 'me', responses: {} } } },
    };
    const swagger = await importOpenApi({ document: v2 }, { namespace: 'old', allowedTokenOrigins });
    expect(swagger.tools.me?.url).toBe('https://api.example.test/v1/me');
    expect(swagger.tools.me?.auth).toMatchObject({
      type: 'oauth2-client-credentials',
      tokenUrl: 'https://auth.example.test/t',
    });
  });

  it('makes credentials optional when the security requirement allows anonymous calls', async () => {
    const document = minimal(
      { '/pub': { get: { operationId: 'pub', security: [{}, { key: [] }], responses: {} } } },
      { components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } } },
    );
    const { tools } = await importOpenApi({ document }, { namespace: 'p' });
    expect(tools.pub?.auth).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-Key',
      value: '${P_KEY}',
      optional: true,
    });
  });
});
