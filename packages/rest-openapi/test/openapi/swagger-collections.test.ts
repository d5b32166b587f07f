import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRestProvider, importOpenApi } from '../../src/index.js';
import { thrown } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';
import type { RecordedRequest } from '../helpers/loopback.js';

const { server, provider, defer } = useCleanups();

const strings = (collectionFormat?: string) => ({
  type: 'array',
  items: { type: 'string' },
  ...(collectionFormat ? { collectionFormat } : {}),
});

/** A Swagger 2.0 document served by `host` with one operation taking these parameters. */
const swagger = (host: string, path: string, method: string, parameters: unknown[], consumes?: string[]) => ({
  swagger: '2.0',
  info: { title: 'collections', version: '1' },
  host,
  schemes: ['http'],
  paths: { [path]: { [method]: { operationId: 'op', parameters, ...(consumes ? { consumes } : {}) } } },
});

/** Fields of a multipart body, read by undici's own parser. */
async function multipartFields(request: RecordedRequest | undefined): Promise<[string, string][]> {
  const contentType = String(request?.headers['content-type']);
  const form = await new Response(request?.body, { headers: { 'content-type': contentType } }).formData();
  return [...form.entries()].map(([name, value]) => [name, String(value)]);
}

describe('Swagger 2.0 collectionFormat sent exactly as written', () => {
  it('joins arrays with commas, spaces, tabs or pipes in the query, path, headers and form bodies', async () => {
    const api = await server();
    const ids = ['a', 'b c'];
    const cases: [
      string,
      string,
      unknown[],
      Record<string, unknown>,
      (request: RecordedRequest) => unknown,
      unknown,
      string[]?,
    ][] = [
      [
        '/q',
        'get',
        [{ name: 'ids', in: 'query', ...strings('tsv') }],
        { ids },
        (r) => r.url,
        '/q?ids=a%09b%20c',
      ],
      [
        '/q',
        'get',
        [{ name: 'ids', in: 'query', ...strings('ssv') }],
        { ids },
        (r) => r.url,
        '/q?ids=a%20b%20c',
      ],
      [
        '/q',
        'get',
        [{ name: 'ids', in: 'query', ...strings('pipes') }],
        { ids },
        (r) => r.url,
        '/q?ids=a|b%20c',
      ],
      [
        '/q',
        'get',
        [{ name: 'ids', in: 'query', ...strings('multi') }],
        { ids },
        (r) => r.url,
        '/q?ids=a&ids=b%20c',
      ],
      [
        '/p/{ids}',
        'get',
        [{ name: 'ids', in: 'path', required: true, ...strings('pipes') }],
        { ids },
        (r) => r.url,
        '/p/a%7Cb%20c',
      ],
      [
        '/p/{ids}',
        'get',
        [{ name: 'ids', in: 'path', required: true, ...strings('tsv') }],
        { ids },
        (r) => r.url,
        '/p/a%09b%20c',
      ],
      [
        '/p/{ids}',
        'get',
        [{ name: 'ids', in: 'path', required: true, ...strings('ssv') }],
        { ids },
        (r) => r.url,
        '/p/a%20b%20c',
      ],
      [
        '/h',
        'get',
        [{ name: 'X-Ids', in: 'header', ...strings('ssv') }],
        { 'X-Ids': ['a', 'b'] },
        (r) => r.headers['x-ids'],
        'a b',
      ],
      [
        '/h',
        'get',
        [{ name: 'X-Ids', in: 'header', ...strings('tsv') }],
        { 'X-Ids': ['a', 'b'] },
        (r) => r.headers['x-ids'],
        'a\tb',
      ],
      [
        '/h',
        'get',
        [{ name: 'X-Ids', in: 'header', ...strings('pipes') }],
        { 'X-Ids': ['a', 'b'] },
        (r) => r.headers['x-ids'],
        'a|b',
      ],
      [
        '/f',
        'post',
        [{ name: 'ids', in: 'formData', ...strings() }],
        { body: { ids } },
        (r) => r.body,
        'ids=a%2Cb%20c',
      ],
      [
        '/f',
        'post',
        [{ name: 'ids', in: 'formData', ...strings('pipes') }],
        { body: { ids } },
        (r) => r.body,
        'ids=a%7Cb%20c',
      ],
      [
        '/f',
        'post',
        [{ name: 'ids', in: 'formData', ...strings('multi') }],
        { body: { ids } },
        (r) => r.body,
        'ids=a&ids=b%20c',
      ],
    ];
    for (const [index, [path, method, parameters, args, seen, expected]] of cases.entries()) {
      const document = swagger(api.host, path, method, parameters);
      const { tools, warnings } = await importOpenApi({ document }, { namespace: 'c' });
      // no warning: each is sent joined as written, not comma-separated or repeated
      expect(warnings, `${path} ${JSON.stringify(parameters)}`).toEqual([]);
      const rest = createRestProvider({ namespace: 'c', tools, env: {} });
      defer(() => rest.close());
      const result = await rest.execute('op', args, createToolContext());
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(seen(api.requests[index] as RecordedRequest), `${path} ${JSON.stringify(parameters)}`).toBe(
        expected,
      );
    }
  });

  it('joins multipart fields as written too', async () => {
    const api = await server();
    const document = swagger(
      api.host,
      '/m',
      'post',
      [
        { name: 'tags', in: 'formData', ...strings('tsv') },
        { name: 'ids', in: 'formData', ...strings('multi') },
      ],
      ['multipart/form-data'],
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'c' });
    expect(warnings).toEqual([]);
    const rest = createRestProvider({ namespace: 'c', tools, env: {} });
    defer(() => rest.close());
    const result = await rest.execute(
      'op',
      { body: { tags: ['x', 'y'], ids: ['1', '2'] } },
      createToolContext(),
    );
    expect(result.ok).toBe(true);
    expect(await multipartFields(api.requests[0])).toEqual([
      ['tags', 'x\ty'],
      ['ids', '1'],
      ['ids', '2'],
    ]);
  });

  it('refuses a collection format it does not know in a hand-written tool', () => {
    const error = thrown(() =>
      provider({
        t: {
          description: 'Gets.',
          method: 'GET',
          url: 'http://a.test/x',
          parametersSchema: objectSchema({ ids: {} }),
          parameters: { ids: { in: 'query', collectionFormat: 'semicolons' as never } },
        },
      }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('collectionFormat');
  });
});
