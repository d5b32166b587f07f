import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestToolConfig } from '../../src/index.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';
import { multipartParts } from '../helpers/multipart.js';

const { server, provider } = useCleanups();

describe('data: URLs without ;base64 in file fields', () => {
  it('sends their percent-decoded bytes with their media type, as a browser reads them', async () => {
    const api = await server();
    const tool: RestToolConfig = {
      description: 'Uploads.',
      method: 'POST',
      url: `${api.origin}/up`,
      parametersSchema: objectSchema({ body: { type: 'object' } }),
      body: { argument: 'body', contentType: 'multipart/form-data', files: { document: {} } },
    };
    const rest = provider({ up: tool });
    const cases: Array<[string, string | undefined, Buffer]> = [
      ['data:text/plain,hello%20world', 'text/plain', Buffer.from('hello world')],
      // a comma after the first is part of the content
      ['data:,a%2Cb,c', undefined, Buffer.from('a,b,c')],
      [
        'data:application/octet-stream,%89PNG%00%ff',
        'application/octet-stream',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]),
      ],
      // text that is not ASCII is its UTF-8 bytes; the charset parameter is not sent as the type
      ['data:text/plain;charset=utf-8,caf\u00e9 %E2%82%AC', 'text/plain', Buffer.from('caf\u00e9 \u20ac')],
      // not a data: URL (no media type before the comma): the text as it is, a CSV whose first line says "data:"
      ['data: 1,2,3\n4,5,6\n', undefined, Buffer.from('data: 1,2,3\n4,5,6\n')],
    ];
    for (const [value, type, bytes] of cases) {
      const before = api.requests.length;
      const result = await rest.execute('up', { body: { document: value } }, createToolContext());
      expect(result.ok, `${value}: ${JSON.stringify(result)}`).toBe(true);
      const [part] = await multipartParts(api.requests[before]);
      expect(part?.bytes?.toString('hex'), value).toBe(bytes.toString('hex'));
      if (type !== undefined) expect(part?.file?.type, value).toBe(type);
    }
    const sent = api.requests.length;
    for (const bad of ['data:text/plain,100%', 'data:text/plain,%zz', 'data:,%4', 'data:text/plain,%%41']) {
      const result = await rest.execute('up', { body: { document: bad } }, createToolContext());
      expect(result.ok, bad).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe('INVALID_ARGUMENTS');
      expect(result.error.message).toContain('"document"');
      expect(result.error.message).toContain('%');
    }
    expect(api.requests).toHaveLength(sent);
  });
});
