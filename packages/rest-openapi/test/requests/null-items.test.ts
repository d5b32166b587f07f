import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestToolConfig } from '../../src/index.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';
import type { RecordedRequest } from '../helpers/loopback.js';

const { server, provider } = useCleanups();

/** Parses a recorded multipart body with undici's own multipart parser (a real one, not ours). */
async function multipartFields(request: RecordedRequest): Promise<[string, string][]> {
  const contentType = String(request.headers['content-type']);
  const form = await new Response(request.body, { headers: { 'content-type': contentType } }).formData();
  return [...form.entries()].map(([name, value]) => [name, String(value)]);
}

const bodyTool = (url: string, contentType: string): RestToolConfig => ({
  description: 'Sends a body.',
  method: 'POST',
  url,
  parametersSchema: objectSchema({ body: {} }),
  body: { argument: 'body', contentType },
});

describe('null items in list and object arguments (undefined values in RFC 6570, which OpenAPI styles follow)', () => {
  it('leaves null items and fields out of query, header, cookie and path arguments', async () => {
    const api = await server();
    const rest = provider({
      styles: {
        description: 'Every style.',
        method: 'GET',
        url: `${api.origin}/items/{labels}`,
        parametersSchema: objectSchema({
          labels: {},
          tags: {},
          ids: {},
          pipes: {},
          spaces: {},
          filter: {},
          fields: {},
          flat: {},
          list: {},
          session: {},
          none: {},
        }),
        parameters: {
          labels: { in: 'path', style: 'label', explode: true },
          tags: { in: 'query', style: 'form', explode: true },
          ids: { in: 'query', style: 'form', explode: false },
          pipes: { in: 'query', style: 'pipeDelimited' },
          spaces: { in: 'query', style: 'spaceDelimited' },
          filter: { in: 'query', style: 'deepObject', explode: true },
          fields: { in: 'query', style: 'form', explode: true },
          flat: { in: 'query', style: 'form', explode: false },
          list: { in: 'header', name: 'x-list' },
          session: { in: 'cookie', explode: true },
          none: { in: 'query', style: 'form', explode: true },
        },
      },
      complex: {
        description: 'Hand-written, expanded.',
        method: 'GET',
        url: `${api.origin}/complex`,
        parametersSchema: objectSchema({ a: {}, o: {} }),
        hasComplexQueryParams: true,
      },
    });
    const styles = await rest.execute(
      'styles',
      {
        labels: ['x', null, 'y'],
        tags: ['a', null, 'b'],
        ids: [1, null, 2],
        pipes: [null, 'p', 'q'],
        spaces: ['s', null],
        filter: { a: null, b: 1, c: [1, null, 2], d: { e: null, f: 'g' } },
        fields: { r: null, s: 'x' },
        flat: { r: null, s: 'x' },
        list: ['h', null, 'i'],
        session: ['c', null],
        none: [null, null],
      },
      createToolContext(),
    );
    expect(styles.ok).toBe(true);
    const seen = api.requests[0];
    // not sent as the text "null", which servers read as the string "null"
    expect(seen?.url).toBe(
      '/items/.x.y?tags=a&tags=b&ids=1,2&pipes=p|q&spaces=s&filter[b]=1&filter[c][]=1&filter[c][]=2&filter[d][f]=g&s=x&flat=s,x',
    );
    expect(seen?.headers['x-list']).toBe('h,i');
    expect(seen?.headers.cookie).toBe('session=c');

    const complex = await rest.execute(
      'complex',
      { a: [1, null], o: { k: null, l: 2 } },
      createToolContext(),
    );
    expect(complex.ok).toBe(true);
    expect(api.requests[1]?.url).toBe('/complex?a=1&o[l]=2');
  });

  it('leaves null items and fields out of form and multipart bodies', async () => {
    const api = await server();
    const rest = provider({
      form: bodyTool(`${api.origin}/form`, 'application/x-www-form-urlencoded'),
      multi: bodyTool(`${api.origin}/multi`, 'multipart/form-data'),
    });
    const body = { a: [1, null, 2], b: null, c: 'x' };
    expect((await rest.execute('form', { body }, createToolContext())).ok).toBe(true);
    expect((await rest.execute('multi', { body }, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.body).toBe('a=1&a=2&c=x');
    expect(await multipartFields(api.requests[1] as RecordedRequest)).toEqual([
      ['a', '1'],
      ['a', '2'],
      ['c', 'x'],
    ]);
  });
});
