import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../src/index.js';
import { minimal, rejection, thrown } from './helpers/bad-input.js';
import { objectSchema, useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

const unsendable = ['text/plain\r\nx-injected: 1', 'application/json\u0000', 'application/json; x=\u0100'];

describe('request body media types a content-type header cannot carry', () => {
  it('skips such an imported operation with the reason, and keeps the others working', async () => {
    const api = await server();
    const paths: Record<string, unknown> = {
      '/fine': {
        post: {
          operationId: 'fine',
          requestBody: {
            content: { 'application/json': { schema: objectSchema({ a: { type: 'string' } }) } },
          },
        },
      },
    };
    unsendable.forEach((type, index) => {
      paths[`/bad${index}`] = {
        post: {
          operationId: `bad${index}`,
          requestBody: { content: { [type]: { schema: { type: 'string' } } } },
        },
      };
    });
    const { tools, warnings } = await importOpenApi(
      { document: minimal(paths, { servers: [{ url: api.origin }] }) },
      { namespace: 'media' },
    );
    // they used to be imported, and every call failed "invalid content-type header"
    expect(Object.keys(tools)).toEqual(['fine']);
    for (const index of [0, 1, 2]) expect(warnings.join('\n')).toContain(`skipped POST /bad${index}: `);
    expect(warnings.join('\n')).toContain('cannot be sent as a content-type header');
    const rest = provider(tools);
    const result = await rest.execute('fine', { body: { a: 'b' } }, createToolContext());
    expect(result.ok && result.structured).toMatchObject({ method: 'POST', body: '{"a":"b"}' });
  });

  it('refuses a hand-written body binding with such a content type when the provider is created', async () => {
    const api = await server();
    for (const contentType of unsendable) {
      const error = thrown(() =>
        provider({
          post: {
            description: 'd',
            method: 'POST',
            url: `${api.origin}/x`,
            body: { argument: 'text', contentType },
            parametersSchema: objectSchema({ text: { type: 'string' } }),
          },
        }),
      );
      expect(error.code, JSON.stringify(contentType)).toBe('CONFIG_INVALID');
      expect(error.message).toContain('body.contentType');
      expect(error.message).not.toContain('\r\n');
    }
    expect(api.requests).toHaveLength(0);
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
    // an array was imported as an empty PUT, the parameters were dropped, the rest vanished unsaid
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

describe('servers that are no list', () => {
  it('stops the import naming what servers is, instead of calling every server URL "/" relative', async () => {
    for (const servers of [{ url: 'https://api.example.test' }, 'https://api.example.test', 5]) {
      const document = minimal({ '/a': { get: { operationId: 'a' } } }, { servers });
      const error = await rejection(importOpenApi({ document }, { namespace: 'servers' }));
      expect(error.code, JSON.stringify(servers)).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(/the document's servers is (an object|a string|a number), not a list/);
      expect(error.message).toContain('pass baseUrl');
    }
    // baseUrl chooses the API's address: the document's servers are not read
    const document = minimal({ '/a': { get: { operationId: 'a' } } }, { servers: { url: 'x' } });
    const { tools } = await importOpenApi(
      { document },
      { namespace: 'servers', baseUrl: 'https://api.example.test' },
    );
    expect(tools.a?.url).toBe('https://api.example.test/a');
  });
});

describe('server entries that are no { url } objects', () => {
  it('stop the import naming the entry, instead of calling every server URL relative', async () => {
    for (const [servers, said] of [
      [['https://api.example.test'], 'servers[0] is a string'],
      [[{ url: 'https://api.example.test' }, null], 'servers[1] is null'],
      [[{ url: 5 }], 'servers[0].url is a number'],
      [[{ description: 'prod' }], 'servers[0] has no url'],
    ] as const) {
      const document = minimal({ '/a': { get: { operationId: 'a' } } }, { servers });
      const error = await rejection(importOpenApi({ document }, { namespace: 'servers' }));
      // each operation used to be skipped as 'the server URL "" is relative'
      expect(error.code, said).toBe('CONFIG_INVALID');
      expect(error.message, said).toContain(said);
      expect(error.message).toContain('pass baseUrl');
    }
    const document = minimal({ '/a': { get: { operationId: 'a' } } }, { servers: ['x'] });
    const { tools } = await importOpenApi(
      { document },
      { namespace: 'servers', baseUrl: 'https://api.example.test' },
    );
    expect(tools.a?.url).toBe('https://api.example.test/a');
  });
});
