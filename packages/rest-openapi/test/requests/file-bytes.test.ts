import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type RestToolConfig, createRestProvider, importOpenApi } from '../../src/index.js';
import { thrown } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';
import { multipartParts } from '../helpers/multipart.js';

const { server, provider, defer } = useCleanups();

/** A PNG signature, NUL and bytes that are no UTF-8 (a lone 0xff, 0xfe, a cut sequence). */
const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0xc3]);

describe('binary file content given as base64', () => {
  it('sends the decoded bytes of base64 fields (format: byte, contentEncoding) and of data: URLs', async () => {
    const api = await server();
    const document = {
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      servers: [{ url: api.origin }],
      paths: {
        '/up': {
          post: {
            operationId: 'up',
            requestBody: {
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    properties: {
                      signature: { type: 'string', format: 'byte' },
                      image: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' },
                      raw: { type: 'string', format: 'binary' },
                      pages: { type: 'array', items: { type: 'string', contentEncoding: 'base64' } },
                    },
                  },
                },
              },
            },
            responses: {},
          },
        },
      },
    };
    const { tools } = await importOpenApi({ document }, { namespace: 'bytes' });
    // the model is told how to give bytes
    const properties = tools.up?.parametersSchema.properties as Record<string, { description?: string }>;
    const bodySchema = properties.body;
    expect(bodySchema?.description).toBe(
      'File fields "raw" take the file\'s text, or its bytes as a data: URL (data:image/png;base64,...). File fields "signature", "image", "pages" take the base64 of the file\'s bytes (or a data: URL).',
    );
    const rest = createRestProvider({ namespace: 'bytes', tools, env: {} });
    defer(() => rest.close());
    const base64 = BYTES.toString('base64');
    // line-wrapped and url-safe base64 decode too
    const wrapped = `${base64.slice(0, 8)}\r\n${base64.slice(8)}`;
    const urlSafe = Buffer.from([0xfb, 0xff, 0xbf]).toString('base64url');
    const result = await rest.execute(
      'up',
      {
        body: {
          signature: base64,
          image: wrapped,
          raw: `data:image/gif;base64,${base64}`,
          pages: [urlSafe, ''],
        },
      },
      createToolContext(),
    );
    expect(result.ok, JSON.stringify(result)).toBe(true);
    const parts = await multipartParts(api.requests[0]);
    expect(parts.map((part) => [part.name, part.file?.type, part.bytes?.toString('hex')])).toEqual([
      ['signature', 'application/octet-stream', BYTES.toString('hex')],
      ['image', 'image/png', BYTES.toString('hex')],
      // the data: URL's media type, as the field names none
      ['raw', 'image/gif', BYTES.toString('hex')],
      ['pages', 'application/octet-stream', 'fbffbf'],
      ['pages', 'application/octet-stream', ''],
    ]);
    // text stays text in a binary field
    const text = await rest.execute('up', { body: { raw: 'a,b\n1,2\n' } }, createToolContext());
    expect(text.ok).toBe(true);
    expect((await multipartParts(api.requests[1]))[0]?.bytes).toEqual(Buffer.from('a,b\n1,2\n'));
    // format: byte is checked by the argument schema (strict base64) before this package's decoding
    const schemaRefused = await rest.execute(
      'up',
      { body: { signature: 'not base64!' } },
      createToolContext(),
    );
    expect(schemaRefused.ok || schemaRefused.error).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    for (const [body, field] of [
      [{ image: 'QUJD=' }, 'image'],
      [{ image: 'QUJD\u00e9' }, 'image'],
      [{ pages: ['QUJD', 'Q'] }, 'pages'],
      [{ raw: 'data:image/png;base64,%%%%' }, 'raw'],
    ] as const) {
      const bad = await rest.execute('up', { body }, createToolContext());
      expect(bad.ok).toBe(false);
      if (bad.ok) continue;
      expect(bad.error.code).toBe('INVALID_ARGUMENTS');
      expect(bad.error.message).toContain(`"${field}"`);
      expect(bad.error.message).toContain('base64');
    }
    expect(api.requests).toHaveLength(2);
  });

  it('decodes a hand-written tool field declared encoding: base64', async () => {
    const api = await server();
    const tool: RestToolConfig = {
      description: 'Uploads.',
      method: 'POST',
      url: `${api.origin}/up`,
      parametersSchema: objectSchema({ body: { type: 'object' } }),
      body: {
        argument: 'body',
        contentType: 'multipart/form-data',
        files: { document: { filenameField: 'name', contentType: 'application/pdf', encoding: 'base64' } },
      },
    };
    const rest = provider({ up: tool });
    const result = await rest.execute(
      'up',
      { body: { document: BYTES.toString('base64'), name: 'scan.pdf' } },
      createToolContext(),
    );
    expect(result.ok, JSON.stringify(result)).toBe(true);
    const [part] = await multipartParts(api.requests[0]);
    expect(part?.file).toEqual({ filename: 'scan.pdf', type: 'application/pdf' });
    expect(part?.bytes).toEqual(BYTES);
    const bad = thrown(() =>
      provider({
        up: { ...tool, body: { ...tool.body, files: { document: { encoding: 'hex' } } } } as never,
      }),
    );
    expect(bad.code).toBe('CONFIG_INVALID');
    expect(bad.message).toContain('body.files.document.encoding');
  });
});
