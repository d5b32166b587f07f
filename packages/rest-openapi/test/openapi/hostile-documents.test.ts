import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type OpenApiSource, createRestProvider, importOpenApi } from '../../src/index.js';
import { minimal, rejection } from '../helpers/bad-input.js';
import { useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, provider, defer } = useCleanups();

describe('hostile OpenAPI documents', () => {
  it('keeps operations, parameters and properties named __proto__ instead of losing them', async () => {
    // JSON.parse makes "__proto__" an own key, as a document read from a file would have it
    const document = JSON.parse(
      JSON.stringify(
        minimal({
          '/proto': {
            post: {
              operationId: '__proto__',
              parameters: [{ name: 'proto_key', in: 'query', schema: { type: 'string' } }],
              requestBody: {
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { __proto_placeholder__: { type: 'string' } } },
                  },
                },
              },
            },
          },
          '/other': { get: { operationId: 'other' } },
        }),
      )
        .replace('"proto_key"', '"__proto__"')
        .replace('"__proto_placeholder__"', '"__proto__"'),
    ) as object;
    const { tools, warnings } = await importOpenApi({ document });
    // the tool does not vanish: assignment to tools["__proto__"] would set a prototype
    expect(Object.keys(tools)).toEqual(['__proto__', 'other']);
    expect(warnings).toEqual([]);
    const tool = Object.getOwnPropertyDescriptor(tools, '__proto__')?.value;
    const properties = tool.parametersSchema.properties as Record<string, unknown>;
    // a validator cannot check a property called __proto__, so the argument gets its location as a prefix
    expect(Object.keys(properties)).toEqual(['query___proto__', 'body']);
    expect(tool.parameters).toEqual({ query___proto__: { in: 'query', name: '__proto__' } });
    expect(Object.keys((properties.body as { properties: object }).properties)).toEqual(['__proto__']);
  });

  it('skips an operation whose schema nests too deeply, with a warning, and keeps the rest working', async () => {
    let deep: unknown = 1;
    for (let level = 0; level < 20_000; level++) deep = [deep];
    const document = minimal({
      '/deep': {
        get: {
          operationId: 'deep',
          parameters: [{ name: 'q', in: 'query', schema: { type: 'array', const: deep } }],
        },
      },
      '/fine': { get: { operationId: 'fine' } },
    });
    const { tools, warnings } = await importOpenApi({ document });
    expect(Object.keys(tools)).toEqual(['fine']);
    expect(warnings.join('\n')).toContain(
      'skipped GET /deep: REST tool "deep": parametersSchema nests deeper than 256 levels',
    );
    // the provider takes the rest (hashing a tool that deep would overflow the stack)
    expect(createRestProvider({ namespace: 'doc', tools }).toolNames).toEqual(['fine']);
    // and refuses such a hand-written tool, or a body template that refers to itself, with CONFIG_INVALID
    const base = { description: 'd', method: 'POST' as const, url: 'https://api.example.test/x' };
    for (const [tool, field] of [
      [
        { ...base, parametersSchema: { type: 'object', properties: { q: { default: deep } } } },
        'parametersSchema',
      ],
      [{ ...base, parametersSchema: { type: 'object' }, bodyTemplate: selfReferring() }, 'bodyTemplate'],
    ] as const) {
      let error: unknown;
      try {
        createRestProvider({ namespace: 'hand', tools: { t: tool } });
      } catch (caught) {
        error = caught;
      }
      expect(ToolError.isInstance(error) && error.code).toBe('CONFIG_INVALID');
      expect((error as Error).message).toContain(`${field} nests deeper than 256 levels or refers to itself`);
    }
  });

  it('refuses a document from a URL whose $ref points at a local file, and leaks nothing of it', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'rest-openapi-hostile-'));
    defer(() => rm(folder, { recursive: true, force: true }));
    const secret = `secret-${Math.random().toString(36).slice(2)}`;
    const secretFile = join(folder, 'config.yaml');
    await writeFile(secretFile, `type: string\ndescription: ${secret}\n`);
    const document = minimal({
      '/a': {
        get: {
          operationId: 'a',
          parameters: [{ name: 'q', in: 'query', schema: { $ref: `file://${secretFile}` } }],
        },
      },
    });
    const api = await server((_request, response) => sendJson(response, 200, document));
    for (const source of [
      `${api.origin}/openapi.json`,
      { document, baseUrl: `${api.origin}/openapi.json` },
    ] as OpenApiSource[]) {
      // read, its content would go into the tool's schema (what the model sees)
      const error = await rejection(importOpenApi(source));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('may refer to other URLs, never to local files');
      expect(error.message).not.toContain(secret);
    }
    // the same document from a local file may still use local files
    const local = join(folder, 'openapi.json');
    await writeFile(local, JSON.stringify(document));
    const fromFile = await importOpenApi(local);
    expect(JSON.stringify(fromFile.tools.a?.parametersSchema)).toContain(secret);
  });

  it('reports a source of the wrong type and bad fetch limits as CONFIG_INVALID', async () => {
    for (const source of [undefined, 5, null, { text: 5 }, { other: true }]) {
      // a ToolError, not a TypeError ("Cannot use 'in' operator")
      const error = await rejection(importOpenApi(source as unknown as OpenApiSource));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(/OpenAPI source must be|\{ text \} must hold/);
    }
    const api = await server((_request, response) => sendJson(response, 200, minimal({})));
    const nan = await rejection(importOpenApi(`${api.origin}/openapi.json`, { fetchTimeoutMs: Number.NaN }));
    expect(nan.code).toBe('CONFIG_INVALID');
    expect(nan.message).toContain('fetchTimeoutMs');
    const zero = await rejection(importOpenApi(`${api.origin}/openapi.json`, { maxDocumentBytes: 0 }));
    expect(zero.message).toContain('maxDocumentBytes');
    expect(api.requests).toHaveLength(0);
  });

  it('skips reference loops of path items and parameters, and a YAML alias bomb, with clear reasons', async () => {
    const { tools, warnings } = await importOpenApi({
      document: minimal(
        {
          '/loop': { $ref: '#/paths/~1loop' },
          '/params': { get: { operationId: 'params', parameters: [{ $ref: '#/components/parameters/a' }] } },
          '/self': {
            get: {
              operationId: 'self',
              parameters: [{ name: 'q', in: 'query', schema: { $ref: '#/components/schemas/Self' } }],
            },
          },
        },
        {
          components: {
            parameters: {
              a: { $ref: '#/components/parameters/b' },
              b: { $ref: '#/components/parameters/a' },
            },
            schemas: { Self: { $ref: '#/components/schemas/Self' } },
          },
        },
      ),
    });
    expect(warnings.join('\n')).toMatch(/skipped \/loop: .*a reference loop/);
    expect(warnings.join('\n')).toMatch(/skipped GET \/params: .*a reference loop/);
    // a schema that is only a reference to itself would become a definition that overflows the
    // validator's stack on the first call ("schema does not compile")
    expect(warnings.join('\n')).toMatch(
      /skipped GET \/self: .*#\/components\/schemas\/Self.*a reference loop/,
    );
    expect(Object.keys(tools)).toEqual([]);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [from, to] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'e'],
      ['e', 'f'],
      ['f', 'g'],
    ])
      bomb.push(`${to}: &${to} [${Array(9).fill(`*${from}`).join(', ')}]`);
    const error = await rejection(importOpenApi({ text: `${bomb.join('\n')}\nopenapi: 3.0.0\npaths: {}\n` }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('not valid YAML');
  });

  it('serves an imported __proto__ tool through the provider', async () => {
    const api = await server();
    const document = JSON.parse(
      JSON.stringify(
        minimal(
          {
            '/p': {
              get: {
                operationId: 'proto_op',
                parameters: [{ name: 'proto_key', in: 'query', schema: { type: 'string' } }],
              },
            },
          },
          { servers: [{ url: api.origin }] },
        ),
      )
        .replace('"proto_op"', '"__proto__"')
        .replace('"proto_key"', '"__proto__"'),
    ) as object;
    const { tools } = await importOpenApi({ document });
    const rest = provider(tools);
    expect(rest.toolNames).toEqual(['__proto__']);
    const result = await rest.execute('__proto__', { query___proto__: 'x' }, createToolContext());
    expect(result.ok).toBe(true);
    expect(api.requests[0]?.url).toBe('/p?__proto__=x');
  });
});

function selfReferring(): Record<string, unknown> {
  const template: Record<string, unknown> = { name: '{{name}}' };
  template.again = template;
  return template;
}

describe('request bodies of the wrong shape', () => {
  it('skips an operation whose requestBody or its content is not an object, saying which', async () => {
    const { tools, warnings } = await importOpenApi({
      document: minimal({
        '/null': { post: { operationId: 'nullBody', requestBody: null } },
        '/list': { post: { operationId: 'listContent', requestBody: { content: ['application/json'] } } },
        '/fine': { post: { operationId: 'fine', requestBody: { content: { 'text/plain': {} } } } },
      }),
    });
    expect(Object.keys(tools)).toEqual(['fine']);
    // a reason, not "Cannot read properties of null (reading 'content')"
    expect(warnings.join('\n')).toContain(
      'skipped POST /null: POST /null: requestBody must be an object with "content"',
    );
    // not imported with the content type "0" (the array's first index)
    expect(warnings.join('\n')).toContain(
      'skipped POST /list: POST /list: requestBody.content must map media types',
    );
  });
});

describe('path items, operations and parameter lists of the wrong shape', () => {
  it('skips each with the reason instead of dropping it, or its parameters, without a word', async () => {
    const document = minimal({
      '/list': [{ get: { operationId: 'x' } }],
      '/nothing': null,
      '/ops': { get: 'read it', put: [], post: 5, delete: { operationId: 'kept' } },
      '/params': { get: { operationId: 'params', parameters: { name: 'q', in: 'query' } } },
      '/shared': { parameters: 'q', get: { operationId: 'shared' } },
    });
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'shapes' });
    // each is named: an array is no empty PUT, parameters are not dropped silently
    expect(Object.keys(tools)).toEqual(['kept']);
    expect(warnings).toEqual([
      'skipped /list: the path item is an array, not an object of operations',
      'skipped /nothing: the path item is null, not an object of operations',
      'skipped GET /ops: the operation is a string, not an object',
      'skipped PUT /ops: the operation is an array, not an object',
      'skipped POST /ops: the operation is a number, not an object',
      'skipped GET /params: its parameters are an object, not a list',
      "skipped GET /shared: the path item's parameters are a string, not a list",
    ]);
  });
});
