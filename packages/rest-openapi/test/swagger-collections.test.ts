import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRestProvider, importOpenApi } from '../src/index.js';
import { useCleanups } from './helpers/fixtures.js';

const { server, defer } = useCleanups();

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

describe('Swagger 2.0 collectionFormat this client cannot send as written', () => {
  it('warns, naming the parameter and what is sent instead', async () => {
    const api = await server();
    const cases: [string, string, unknown[], string | undefined, string[]?][] = [
      [
        '/q',
        'get',
        [{ name: 'ids', in: 'query', ...strings('tsv') }],
        'query parameter ids: collectionFormat tsv',
      ],
      [
        '/p/{ids}',
        'get',
        [{ name: 'ids', in: 'path', required: true, ...strings('pipes') }],
        'path parameter ids: collectionFormat pipes',
      ],
      [
        '/h',
        'get',
        [{ name: 'X-Ids', in: 'header', ...strings('ssv') }],
        'header parameter X-Ids: collectionFormat ssv',
      ],
      [
        '/f',
        'post',
        [{ name: 'ids', in: 'formData', ...strings() }],
        'formData parameter ids: collectionFormat csv',
      ],
      [
        '/f',
        'post',
        [{ name: 'ids', in: 'formData', ...strings('pipes') }],
        'formData parameter ids: collectionFormat pipes',
        ['multipart/form-data'],
      ],
      // these are sent as written: no warning
      ['/f', 'post', [{ name: 'ids', in: 'formData', ...strings('multi') }], undefined],
      ['/q', 'get', [{ name: 'ids', in: 'query', ...strings('pipes') }], undefined],
      ['/p/{ids}', 'get', [{ name: 'ids', in: 'path', required: true, ...strings('csv') }], undefined],
    ];
    for (const [path, method, parameters, warning, consumes] of cases) {
      const document = swagger(api.host, path, method, parameters, consumes);
      const { tools, warnings } = await importOpenApi({ document }, { namespace: 'c' });
      // the tool stays (single values go as written), and the warning says what arrays become
      expect(Object.keys(tools), path).toEqual(['op']);
      if (warning === undefined) expect(warnings, `${path} ${JSON.stringify(parameters)}`).toEqual([]);
      else {
        // it used to be silent: tabs, pipes and spaces went out as commas, csv form fields as repeated fields
        expect(warnings.join('\n'), path).toContain(`${method.toUpperCase()} ${path}: ${warning}`);
        expect(warnings.join('\n'), path).toContain('is sent as');
      }
    }
  });

  it('sends what the warning says', async () => {
    const api = await server();
    const document = swagger(api.host, '/q', 'get', [{ name: 'ids', in: 'query', ...strings('tsv') }]);
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'c' });
    const rest = createRestProvider({ namespace: 'c', tools, env: {} });
    defer(() => rest.close());
    expect((await rest.execute('op', { ids: ['a', 'b'] }, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.url).toBe('/q?ids=a,b');
    expect(warnings.join('\n')).toContain('comma-separated');
  });
});
