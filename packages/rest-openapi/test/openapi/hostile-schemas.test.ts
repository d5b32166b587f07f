import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRestProvider, importOpenApi } from '../../src/index.js';
import { failure } from '../helpers/bad-input.js';
import { useCleanups } from '../helpers/fixtures.js';

const { server, defer } = useCleanups();

/** A 3.1 document with one POST /tree whose JSON body is `body`, its components `schemas`, served by `origin`. */
function treeDocument(origin: string, body: unknown, schemas: Record<string, unknown> = {}) {
  return {
    openapi: '3.1.0',
    info: { title: 'trees', version: '1' },
    servers: [{ url: origin }],
    components: { schemas },
    paths: {
      '/tree': {
        post: { operationId: 'plant', requestBody: { content: { 'application/json': { schema: body } } } },
      },
    },
  };
}

describe('hostile argument schemas', () => {
  it('imports a recursive component named __proto__ and validates through it', async () => {
    const api = await server();
    // JSON.parse makes "__proto__" an own key, as a document read from a file would have it
    const document = JSON.parse(
      JSON.stringify(
        treeDocument(
          api.origin,
          { $ref: '#/components/schemas/proto_key' },
          {
            proto_key: {
              type: 'object',
              properties: { name: { type: 'string' }, child: { $ref: '#/components/schemas/proto_key' } },
            },
          },
        ),
      ).replaceAll('proto_key', '__proto__'),
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'trees' });
    // not skipped: assigned as a plain key, the definition would become a prototype
    // ("definitions.type must be object,boolean")
    expect(warnings).toEqual([]);
    const rest = createRestProvider({ namespace: 'trees', tools, env: {} });
    defer(() => rest.close());
    const planted = await rest.execute(
      'plant',
      { body: { name: 'a', child: { name: 'b' } } },
      createToolContext(),
    );
    expect(planted.ok).toBe(true);
    const refused = failure(
      await rest.execute('plant', { body: { child: { name: 5 } } }, createToolContext()),
    );
    expect(refused.error.code).toBe('INVALID_ARGUMENTS');
    expect(api.requests.map((request) => request.body)).toEqual(['{"name":"a","child":{"name":"b"}}']);
  });

  it('lets the discriminator pick among oneOf branches that overlap, as OpenAPI means', async () => {
    const api = await server();
    const pet = (extra: Record<string, unknown>) => ({
      type: 'object',
      properties: { petType: { type: 'string' }, name: { type: 'string' }, ...extra },
      required: ['petType'],
    });
    const schemas = { Cat: pet({ indoor: { type: 'boolean' } }), Dog: pet({ bark: { type: 'boolean' } }) };
    const branches = [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }];
    const document = treeDocument(
      api.origin,
      { oneOf: branches, discriminator: { propertyName: 'petType' } },
      schemas,
    );
    const { tools } = await importOpenApi({ document }, { namespace: 'pets' });
    const rest = createRestProvider({ namespace: 'pets', tools, env: {} });
    defer(() => rest.close());
    // each matches both branches: plain oneOf would refuse both ("must match exactly one schema in oneOf")
    for (const body of [
      { petType: 'Cat', name: 'Tom', indoor: true },
      { petType: 'Dog', bark: true },
    ]) {
      const result = await rest.execute('plant', { body }, createToolContext());
      expect(result.ok, JSON.stringify(body)).toBe(true);
    }
    const neither = failure(await rest.execute('plant', { body: { name: 'no type' } }, createToolContext()));
    expect(neither.error.code).toBe('INVALID_ARGUMENTS');
    expect(api.requests).toHaveLength(2);
    // without a discriminator, oneOf keeps its meaning
    const plain = treeDocument(api.origin, { oneOf: branches }, schemas);
    const imported = await importOpenApi({ document: plain }, { namespace: 'pets' });
    const properties = imported.tools.plant?.parametersSchema.properties as Record<string, object>;
    expect(Object.keys(properties.body ?? {})).toContain('oneOf');
  });
});
