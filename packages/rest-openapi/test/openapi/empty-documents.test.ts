import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { minimal } from '../helpers/bad-input.js';

describe('documents that give no tools say why', () => {
  it('says a document with only webhooks describes no operation a client can call', async () => {
    const result = await importOpenApi({
      document: {
        openapi: '3.1.0',
        info: { title: 'Notifications', version: '1' },
        paths: {},
        webhooks: {
          paymentDone: { post: { requestBody: { content: { 'application/json': { schema: {} } } } } },
          refundDone: { post: {} },
        },
      },
    });
    expect(result.tools).toEqual({});
    expect(result.diagnostics).toMatchObject([{ code: 'WEBHOOKS_ONLY' }]);
    expect(result.warnings[0]).toContain(
      'the document describes 2 webhooks and no paths: webhooks are requests the API sends to you, not operations a client can call',
    );
    expect(result.warnings.join('\n')).not.toContain('--tag');
  });

  it('says a document has no paths, and which tags filters could match', async () => {
    const empty = await importOpenApi({ document: minimal({}) });
    expect(empty.diagnostics).toMatchObject([{ code: 'NO_PATHS' }]);
    expect(empty.warnings[0]).toContain('the document has no paths');
    const tagged = minimal({
      '/pets': { get: { operationId: 'listPets', tags: ['pets'] } },
      '/store': { get: { operationId: 'order', tags: ['store'] } },
    });
    const filtered = await importOpenApi({ document: tagged }, { include: { tags: ['users'] } });
    expect(filtered.diagnostics).toMatchObject([{ code: 'NO_OPERATION_MATCHED' }]);
    expect(filtered.warnings[0]).toContain("none of the document's 2 operations passes include");
    expect(filtered.diagnostics[0]?.hint).toContain('"pets", "store"');
    // an import with tools has none of these
    expect((await importOpenApi({ document: tagged })).diagnostics).toEqual([]);
  });
});
