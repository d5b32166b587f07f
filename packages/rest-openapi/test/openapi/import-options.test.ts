import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRestProvider, importOpenApi } from '../../src/index.js';
import { minimal, rejection } from '../helpers/bad-input.js';
import { useCleanups } from '../helpers/fixtures.js';

const { defer } = useCleanups();

describe('mistyped importer options', () => {
  const document = minimal(
    { '/pets': { get: { operationId: 'listPets', tags: ['pets'], description: 'Lists the pets.' } } },
    { servers: [{ url: 'https://prod.example.test' }, { url: 'https://staging.example.test' }] },
  );

  it('refuses filters that are not lists, instead of matching by substring or throwing TypeError', async () => {
    for (const [options, field] of [
      // a string would match by substring ("pet" keeping operations tagged "pets")
      [{ include: { tags: 'pet' } }, 'include.tags'],
      [{ exclude: { methods: 'GET' } }, 'exclude.methods'],
      [{ include: { operationIds: [5] } }, 'include.operationIds'],
      [{ include: { paths: null } }, 'include.paths'],
    ] as const) {
      const error = await rejection(importOpenApi({ document }, options as never));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain(`${field} must be a list of`);
    }
    const regex = await importOpenApi({ document }, { include: { operationIds: [/^list/] } });
    expect(Object.keys(regex.tools)).toEqual(['listPets']);
  });

  it('refuses a server choice the document does not have, instead of using the first server', async () => {
    for (const server of [5, -1, 1.5, 'https://stagng.example.test']) {
      // falling back on a typo would send every call to the first (production) server
      const error = await rejection(importOpenApi({ document }, { server }));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(/server/);
    }
    const missing = await rejection(importOpenApi({ document }, { server: 'https://stagng.example.test' }));
    expect(missing.message).toContain('0: https://prod.example.test, 1: https://staging.example.test');
    const staging = await importOpenApi({ document }, { server: 'https://staging.example.test' });
    expect(staging.tools.listPets?.url).toBe('https://staging.example.test/pets');
  });

  it('refuses description limits below 1 and a baseUrl with a query, and names a non-http server', async () => {
    for (const maxDescriptionLength of [0, -1, Number.NaN]) {
      // these would cut every description to "…"
      const error = await rejection(importOpenApi({ document }, { maxDescriptionLength }));
      expect(error.message).toContain('maxDescriptionLength must be');
    }
    // paths would go after the query: https://api.example.test/v1?key=1/pets
    const query = await rejection(
      importOpenApi({ document }, { baseUrl: 'https://api.example.test/v1?key=1' }),
    );
    expect(query.code).toBe('CONFIG_INVALID');
    expect(query.message).toContain('without a query');
    const ftp = await importOpenApi({ document }, { baseUrl: 'ftp://files.example.test' });
    // the warning names the scheme, not "is relative ... pass baseUrl": baseUrl is what was passed
    expect(ftp.warnings).toEqual([
      'skipped GET /pets: the server URL "ftp://files.example.test" is not http or https',
    ]);
  });
});

describe('documents with parts the provider would refuse', () => {
  it('keeps the operations of a security scheme naming an impossible header, without it, and refuses bad toolDefaults', async () => {
    const document = minimal(
      {
        '/keyed': { get: { operationId: 'keyed', security: [{ key: [] }] } },
        '/open': { get: { operationId: 'open' } },
      },
      { components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'api key\r\n' } } } },
    );
    const { tools, warnings, diagnostics } = await importOpenApi({ document });
    // no request can carry that header: the scheme is skipped, never the operation
    expect(Object.keys(tools)).toEqual(['keyed', 'open']);
    expect(tools.keyed?.auth).toBeUndefined();
    expect(diagnostics).toMatchObject([{ code: 'SECURITY_SCHEME_SKIPPED', scheme: 'key', tools: ['keyed'] }]);
    expect(warnings.join('\n')).toContain('is not a valid HTTP header name');
    expect(createRestProvider({ namespace: 'doc', tools }).toolNames).toEqual(['keyed', 'open']);
    const defaults = await rejection(importOpenApi({ document }, { toolDefaults: { timeoutMs: 'soon' } }));
    expect(defaults.code).toBe('CONFIG_INVALID');
    expect(defaults.message).toContain('REST tool "toolDefaults": timeoutMs');
  });
});

describe('enormous and odd document files', () => {
  it('reads a document file no further than maxDocumentBytes, and accepts file: URLs', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'rest-openapi-files-'));
    defer(() => rm(folder, { recursive: true, force: true }));
    const file = join(folder, 'my api.json');
    await writeFile(
      file,
      JSON.stringify(minimal({ '/a': { get: { operationId: 'a', description: 'x'.repeat(4000) } } })),
    );
    // the limit applies to files as well as URLs
    const big = await rejection(importOpenApi(file, { maxDocumentBytes: 1000 }));
    expect(big.code).toBe('CONFIG_INVALID');
    expect(big.message).toContain('is larger than 1000 bytes; raise maxDocumentBytes');
    // a device that never ends is read no further than the limit
    const endless = await rejection(importOpenApi('/dev/zero', { maxDocumentBytes: 64 * 1024 }));
    expect(endless.message).toContain('is larger than 65536 bytes');
    // a file: URL is a path, percent-decoded (my%20api.json is "my api.json")
    const { tools } = await importOpenApi(pathToFileURL(file));
    expect(Object.keys(tools)).toEqual(['a']);
    const ftp = await rejection(importOpenApi(new URL('ftp://files.example.test/openapi.json')));
    expect(ftp.message).toContain('must be http:, https: or file:');
  });
});
