import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRestProvider, importOpenApi } from '../../src/index.js';
import { minimal, rejection, thrown } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';

const { server, provider, defer } = useCleanups();

const LONG = 10_000;

const DEPTH = 100_000;
const head =
  'openapi: 3.0.3\ninfo: {title: t, version: "1"}\nservers: [{url: "https://api.example.test"}]\npaths: {/a: {get: {operationId: a}}}\n';

/** A JSON body operation at `/a` with `schema`. */
const jsonBody = (schema: unknown) => ({
  '/a': {
    post: {
      operationId: 'a',
      requestBody: { required: true, content: { 'application/json': { schema } } },
      responses: {},
    },
  },
});

describe('documents deep and long in references and nesting', () => {
  it('follows $ref chains 10,000 long, of schemas and of parameters, to what they name', async () => {
    const api = await server();
    const schemas: Record<string, unknown> = {};
    const parameters: Record<string, unknown> = {};
    for (let index = 0; index < LONG; index++) {
      schemas[`S${index}`] = { $ref: `#/components/schemas/S${index + 1}` };
      parameters[`P${index}`] = { $ref: `#/components/parameters/P${index + 1}` };
    }
    schemas[`S${LONG}`] = { type: 'string', maxLength: 3 };
    parameters[`P${LONG}`] = { name: 'q', in: 'query', schema: { $ref: '#/components/schemas/S0' } };
    const document = minimal(
      {
        '/a': {
          get: { operationId: 'a', parameters: [{ $ref: '#/components/parameters/P0' }], responses: {} },
        },
      },
      { servers: [{ url: api.origin }], components: { schemas, parameters } },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'chain' });
    expect(warnings).toEqual([]);
    // the end of the chain, not an empty schema that lets anything through
    expect(tools.a?.parametersSchema.properties).toEqual({ q: { type: 'string', maxLength: 3 } });
    const rest = createRestProvider({ namespace: 'chain', tools, env: {} });
    defer(() => rest.close());
    const long = await rest.execute('a', { q: 'abcd' }, createToolContext());
    expect(long.ok || long.error.code).toBe('INVALID_ARGUMENTS');
    expect((await rest.execute('a', { q: 'abc' }, createToolContext())).ok).toBe(true);
    expect(api.requests.map((request) => request.url)).toEqual(['/a?q=abc']);
  });

  it('skips an operation whose references loop through 10,000 schemas, saying so', async () => {
    const schemas: Record<string, unknown> = {};
    for (let index = 0; index < LONG; index++)
      schemas[`S${index}`] = { $ref: `#/components/schemas/S${(index + 1) % LONG}` };
    const document = minimal(
      {
        ...jsonBody({ $ref: '#/components/schemas/S0' }),
        '/b': { get: { operationId: 'b', responses: {} } },
      },
      { components: { schemas } },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'loop' });
    expect(Object.keys(tools)).toEqual(['b']);
    expect(warnings.join('\n')).toMatch(/POST \/a.*loop/);
  });

  it('skips a schema nesting 10,000 levels (strict: CONFIG_INVALID), and keeps one of 100 levels whole', async () => {
    const nest = (levels: number) => {
      let schema: Record<string, unknown> = { type: 'string', maxLength: 3 };
      for (let level = 0; level < levels; level++)
        schema = { type: 'object', properties: { x: schema }, required: ['x'] };
      return schema;
    };
    const deep = minimal(jsonBody(nest(LONG)));
    const { tools, warnings } = await importOpenApi({ document: deep }, { namespace: 'deep' });
    expect(tools).toEqual({});
    expect(warnings.join('\n')).toMatch(/POST \/a.*nests deeper than/);
    const strict = await importOpenApi({ document: deep }, { namespace: 'deep', strict: true }).catch(
      (error: unknown) => error as { code?: string },
    );
    expect(strict).toMatchObject({ code: 'CONFIG_INVALID' });
    // a deep but acceptable schema keeps its innermost level, not {} below 64 levels
    const kept = await importOpenApi({ document: minimal(jsonBody(nest(100))) }, { namespace: 'deep' });
    const properties = kept.tools.a?.parametersSchema.properties as Record<string, unknown>;
    let node = properties.body as { properties?: { x?: unknown } } | undefined;
    let levels = 0;
    while (node?.properties?.x !== undefined && levels < 1000) {
      node = node.properties.x as typeof node;
      levels++;
    }
    expect(levels).toBe(100);
    expect(node).toEqual({ type: 'string', maxLength: 3 });
  });

  it('skips an allOf of 10,000 members core would refuse to compile, and refuses such a hand-written tool', async () => {
    const members = Array.from({ length: LONG }, (_, index) => ({
      type: 'object',
      properties: { [`p${index}`]: { type: 'string' } },
    }));
    const document = minimal({
      ...jsonBody({ allOf: members }),
      '/b': { get: { operationId: 'b', responses: {} } },
    });
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'wide' });
    // every call would have failed CONFIG_INVALID, the schema being too large to compile
    expect(Object.keys(tools)).toEqual(['b']);
    expect(warnings.join('\n')).toMatch(/POST \/a.*more than 5000 objects and arrays/);
    const error = thrown(() =>
      provider({
        wide: {
          description: 'Wide.',
          method: 'POST',
          url: 'http://127.0.0.1:9/wide',
          parametersSchema: objectSchema({ body: { allOf: members } }),
        },
      }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('more than 5000 objects and arrays');
  });

  it('names at most 10 of 20,000 unusable security alternatives in its warnings', async () => {
    const count = 20_000;
    const names = Array.from({ length: count }, (_, index) => `oidc${index}`);
    const document = minimal(
      { '/a': { get: { operationId: 'a', security: names.map((name) => ({ [name]: [] })), responses: {} } } },
      {
        components: {
          securitySchemes: Object.fromEntries(
            names.map((name) => [
              name,
              { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.test' },
            ]),
          ),
        },
      },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'many' });
    expect(Object.keys(tools)).toEqual(['a']);
    // not one warning per alternative (20,000 lines)
    expect(warnings).toHaveLength(11);
    expect(warnings.at(-1)).toBe(
      'GET /a: and 19990 more security alternatives that are not usable either; calls go without credentials',
    );
  });

  it('leaves out an example or default nesting 100,000 levels instead of the whole operation', async () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const document = minimal({
      '/a': {
        get: {
          operationId: 'a',
          parameters: [
            { name: 'q', in: 'query', schema: { type: 'array', example: deep } },
            { name: 'r', in: 'query', schema: { type: 'array', default: deep, maxItems: 2 } },
          ],
          responses: {},
        },
      },
    });
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'examples' });
    // the operation is kept, not skipped as "parametersSchema nests deeper than 256 levels"
    expect(tools.a?.parametersSchema.properties).toEqual({
      q: { type: 'array' },
      r: { type: 'array', maxItems: 2 },
    });
    expect(warnings).toEqual([
      '2 examples or defaults nesting deeper than 64 levels were left out of the input schemas',
    ]);
  });
});

describe('documents nesting deeper than a parser can follow', () => {
  it('are CONFIG_INVALID saying they nest too deeply, not that the text is broken', async () => {
    const yaml = `${head}x-junk: ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n`;
    const json = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-ref":{"$ref":"other.json"},"x-junk":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`;
    for (const text of [yaml, json]) {
      const error = await rejection(importOpenApi({ text }, { namespace: 'deep' }));
      // not "not valid YAML or JSON (Maximum call stack size exceeded)", nor a $ref blamed
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('nests too deeply');
      expect(error.message).not.toContain('call stack');
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
    // the whole list in the schema the model is shown would be 1.4 MB for this one argument
    expect(JSON.stringify(tools.a?.parametersSchema).length).toBeLessThan(2000);
    expect(properties.huge?.enum).toBeUndefined();
    expect(properties.huge?.type).toBe('string');
    expect(properties.huge?.description).toContain('One of 100000 values');
    expect(properties.short?.enum).toEqual(['x', 'y']);
    expect(warnings.join('\n')).toContain('1 enum of more than 256 values was left out');
  });
});
