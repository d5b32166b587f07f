import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRestProvider, importOpenApi } from '../../src/index.js';
import { useCleanups } from '../helpers/fixtures.js';
import { multipartParts } from '../helpers/multipart.js';

const { server, defer } = useCleanups();

const multipart = (schema: unknown) => ({
  requestBody: { content: { 'multipart/form-data': { schema } } },
  responses: {},
});

describe('file fields behind references (imported multipart bodies)', () => {
  it('marks $ref, allOf, oneOf and anyOf-with-null file properties, and those of a recursive body, as file parts', async () => {
    const api = await server();
    const document = {
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      servers: [{ url: api.origin }],
      paths: {
        '/one': {
          post: {
            operationId: 'one',
            // 3.1: a $ref with a sibling keyword becomes allOf: [target, { contentMediaType }]
            ...multipart({
              type: 'object',
              properties: {
                upload: { $ref: '#/components/schemas/File', contentMediaType: 'text/csv' },
                filename: { type: 'string' },
              },
            }),
          },
        },
        '/many': {
          post: {
            operationId: 'many',
            ...multipart({
              type: 'object',
              properties: {
                merged: { allOf: [{ $ref: '#/components/schemas/File' }, { description: 'x' }] },
                // one file or a list of them
                either: {
                  oneOf: [
                    { $ref: '#/components/schemas/File' },
                    { type: 'array', items: { $ref: '#/components/schemas/File' } },
                  ],
                },
                maybe: { anyOf: [{ $ref: '#/components/schemas/Png' }, { type: 'null' }] },
                list: { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/File' }] } },
                // not a file: one branch is plain text
                text: { anyOf: [{ $ref: '#/components/schemas/File' }, { type: 'string' }] },
              },
            }),
          },
        },
        '/tree': { post: { operationId: 'tree', ...multipart({ $ref: '#/components/schemas/Upload' }) } },
      },
      components: {
        schemas: {
          File: { type: 'string', format: 'binary' },
          Png: { type: 'string', contentMediaType: 'image/png' },
          // recursive: kept as #/definitions/Upload in the tool's schema
          Upload: {
            type: 'object',
            properties: {
              attachment: { $ref: '#/components/schemas/File' },
              parent: { $ref: '#/components/schemas/Upload' },
            },
          },
        },
      },
    };
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'refs' });
    expect(warnings).toEqual([]);
    const rest = createRestProvider({ namespace: 'refs', tools, env: {} });
    defer(() => rest.close());
    const call = async (name: string, body: Record<string, unknown>) => {
      const result = await rest.execute(name, { body }, createToolContext());
      expect(result.ok, JSON.stringify(result)).toBe(true);
      return multipartParts(api.requests.at(-1));
    };
    expect(await call('one', { upload: 'a,b\n', filename: 'dir/report.csv' })).toEqual([
      {
        name: 'upload',
        file: { filename: 'report.csv', type: 'text/csv' },
        text: 'a,b\n',
        bytes: Buffer.from('a,b\n'),
      },
      { name: 'filename', text: 'dir/report.csv' },
    ]);
    const octet = (name: string, text: string, type = 'application/octet-stream') => ({
      name,
      file: { filename: name, type },
      text,
      bytes: Buffer.from(text),
    });
    expect(
      await call('many', { merged: 'm', either: ['e1', 'e2'], maybe: 'p', list: ['l1', 'l2'], text: 't' }),
    ).toEqual([
      octet('merged', 'm'),
      octet('either', 'e1'),
      octet('either', 'e2'),
      octet('maybe', 'p', 'image/png'),
      octet('list', 'l1'),
      octet('list', 'l2'),
      { name: 'text', text: 't' },
    ]);
    expect(await call('tree', { attachment: 'bytes' })).toEqual([octet('attachment', 'bytes')]);
  });
});
