import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type RestToolConfig, createRestProvider, importOpenApi } from '../../src/index.js';
import { minimal, thrown } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';
import type { RecordedRequest } from '../helpers/loopback.js';

const { server, provider, defer } = useCleanups();

interface Part {
  readonly name: string;
  readonly file?: { readonly filename: string; readonly type: string };
  readonly text: string;
}

/** Parses a recorded multipart body with undici's own multipart parser: a part with a filename is a File. */
async function parts(request: RecordedRequest | undefined): Promise<Part[]> {
  const contentType = String(request?.headers['content-type']);
  const form = await new Response(request?.body, { headers: { 'content-type': contentType } }).formData();
  const out: Part[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') out.push({ name, text: value });
    else out.push({ name, file: { filename: value.name, type: value.type }, text: await value.text() });
  }
  return out;
}

describe('file fields of multipart bodies', () => {
  it('sends imported file fields (format: binary, Swagger type: file) as files with a filename', async () => {
    const api = await server();
    const multipartBody = (properties: Record<string, unknown>) => ({
      requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', properties } } } },
    });
    const document = minimal(
      {
        '/upload': {
          post: {
            operationId: 'upload',
            ...multipartBody({
              file: { type: 'string', format: 'binary' },
              filename: { type: 'string' },
              note: { type: 'string' },
            }),
          },
        },
        '/gallery': {
          post: {
            operationId: 'gallery',
            ...multipartBody({
              attachments: { type: 'array', items: { type: 'string', format: 'binary' } },
              avatar: { type: 'string', contentMediaType: 'image/png' },
              filename: { type: 'string' },
            }),
          },
        },
      },
      { servers: [{ url: api.origin }] },
    );
    const { tools } = await importOpenApi({ document }, { namespace: 'files' });
    const swagger = await importOpenApi(
      {
        document: {
          swagger: '2.0',
          info: { title: 'T', version: '1' },
          host: api.host,
          schemes: ['http'],
          paths: {
            '/legacy': {
              post: {
                operationId: 'legacy',
                consumes: ['multipart/form-data'],
                parameters: [
                  { name: 'data', in: 'formData', type: 'file' },
                  { name: 'title', in: 'formData', type: 'string' },
                ],
                responses: {},
              },
            },
          },
        },
      },
      { namespace: 'legacy' },
    );
    const rest = createRestProvider({ namespace: 'files', tools: { ...tools, ...swagger.tools }, env: {} });
    defer(() => rest.close());
    const upload = await rest.execute(
      'upload',
      { body: { file: 'col1,col2\n1,2\n', filename: '../../etc/report.csv', note: 'hello' } },
      createToolContext(),
    );
    expect(upload.ok).toBe(true);
    // file parts, not plain fields: servers look for files (multer, FastAPI's UploadFile)
    const csv = { filename: 'report.csv', type: 'application/octet-stream' };
    expect(await parts(api.requests[0])).toEqual([
      { name: 'file', file: csv, text: 'col1,col2\n1,2\n' },
      { name: 'filename', text: '../../etc/report.csv' },
      { name: 'note', text: 'hello' },
    ]);
    // several files: which one a filename field names is a guess, so each is named after its field
    const gallery = await rest.execute(
      'gallery',
      { body: { attachments: ['a', 'b'], avatar: 'png bytes', filename: 'x.png' } },
      createToolContext(),
    );
    expect(gallery.ok, JSON.stringify(gallery)).toBe(true);
    const attachment = { filename: 'attachments', type: 'application/octet-stream' };
    expect(await parts(api.requests[1])).toEqual([
      { name: 'attachments', file: attachment, text: 'a' },
      { name: 'attachments', file: attachment, text: 'b' },
      { name: 'avatar', file: { filename: 'avatar', type: 'image/png' }, text: 'png bytes' },
      { name: 'filename', text: 'x.png' },
    ]);
    const legacy = await rest.execute('legacy', { body: { data: 'x', title: 't' } }, createToolContext());
    expect(legacy.ok, JSON.stringify(legacy)).toBe(true);
    expect(await parts(api.requests[2])).toEqual([
      { name: 'data', file: { filename: 'data', type: 'application/octet-stream' }, text: 'x' },
      { name: 'title', text: 't' },
    ]);
  });

  it('takes a hand-written tool file field and its filename field from body.files', async () => {
    const api = await server();
    const tool: RestToolConfig = {
      description: 'Uploads.',
      method: 'POST',
      url: `${api.origin}/up`,
      parametersSchema: objectSchema({ body: { type: 'object' } }),
      body: {
        argument: 'body',
        contentType: 'multipart/form-data',
        files: { document: { filenameField: 'name', contentType: 'text/plain' } },
      },
    };
    const rest = provider({ up: tool });
    const long = `${'n'.repeat(10_000)}.txt`;
    for (const name of ['C:\\Users\\me\\notes.txt', '..', '', 'a\r\nb.txt', 7, long]) {
      const result = await rest.execute('up', { body: { document: 'text', name } }, createToolContext());
      expect(result.ok).toBe(true);
    }
    const filenames = [];
    for (const request of api.requests) filenames.push((await parts(request))[0]?.file?.filename);
    // a path is cut to its last part; nothing usable falls back to the field's name
    // a name longer than file systems take (255) keeps its end, where the extension is
    expect(filenames).toEqual(['notes.txt', 'document', 'document', 'a  b.txt', '7', long.slice(-255)]);
    const bad = thrown(() =>
      provider({
        up: {
          ...tool,
          body: { argument: 'body', contentType: 'multipart/form-data', files: { f: 'yes' } },
        } as never,
      }),
    );
    expect(bad.code).toBe('CONFIG_INVALID');
    expect(bad.message).toContain('body.files');
  });
});
