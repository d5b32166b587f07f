import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { minimal, thrown } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';

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
    // imported, every call would fail "invalid content-type header"
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
