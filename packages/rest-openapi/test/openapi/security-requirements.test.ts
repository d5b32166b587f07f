import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { minimal } from '../helpers/bad-input.js';

describe('security requirements of the wrong shape', () => {
  it('names a requirement that is no object instead of skipping the operation with a TypeError', async () => {
    const document = minimal(
      { '/a': { get: { operationId: 'a', security: [null, 5, { key: [] }] } } },
      { components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } } },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'shapes' });
    // the operation is kept, not skipped with "Cannot convert undefined or null to object"
    expect(tools.a?.auth).toEqual({ type: 'apiKey', in: 'header', name: 'X-Key', value: '${SHAPES_KEY}' });
    expect(warnings.join('\n')).not.toContain('Cannot convert');
    const none = await importOpenApi(
      { document: minimal({ '/a': { get: { operationId: 'a', security: [null] } } }) },
      { namespace: 'shapes' },
    );
    expect(Object.keys(none.tools)).toEqual(['a']);
    expect(none.warnings).toEqual([
      'GET /a: a security requirement is not an object of scheme names; calls go without credentials',
    ]);
  });
});

describe('a security that is no list of requirements', () => {
  const schemes = {
    components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
  };

  it('names each operation whose own security is a string, a number or an object', async () => {
    const document = minimal(
      {
        '/s': { get: { operationId: 's', security: 'key' } },
        '/n': { get: { operationId: 'n', security: 5 } },
        '/o': { get: { operationId: 'o', security: { key: [] } } },
        '/fine': { get: { operationId: 'fine', security: [{ key: [] }] } },
      },
      schemes,
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'shapes' });
    expect(Object.keys(tools)).toEqual(['s', 'n', 'o', 'fine']);
    // imported without credentials, each with a warning
    expect(warnings).toEqual([
      'GET /s: its security is a string, not a list of requirements; calls go without credentials',
      'GET /n: its security is a number, not a list of requirements; calls go without credentials',
      'GET /o: its security is an object, not a list of requirements; calls go without credentials',
    ]);
    expect(tools.s?.auth).toBeUndefined();
    expect(tools.fine?.auth).toMatchObject({ type: 'apiKey', name: 'X-Key' });
  });

  it("falls back to the document's security with a warning when an operation's own is malformed", async () => {
    const document = minimal(
      { '/a': { get: { operationId: 'a', security: 'key' } } },
      {
        ...schemes,
        security: [{ key: [] }],
      },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'shapes' });
    expect(tools.a?.auth).toMatchObject({ type: 'apiKey', name: 'X-Key' });
    expect(warnings).toEqual([
      "GET /a: its security is a string, not a list of requirements; the document's security is used",
    ]);
  });

  it('names the operations left without credentials by a malformed document security', async () => {
    for (const security of ['key', 7, { key: [] }]) {
      const document = minimal(
        {
          '/a': { get: { operationId: 'a' } },
          '/b': { get: { operationId: 'b' } },
          '/own': { get: { operationId: 'own', security: [{ key: [] }] } },
        },
        { ...schemes, security },
      );
      const { tools, warnings } = await importOpenApi({ document }, { namespace: 'shapes' });
      expect(Object.keys(tools)).toEqual(['a', 'b', 'own']);
      expect(tools.own?.auth).toMatchObject({ type: 'apiKey' });
      expect(warnings.join('\n'), JSON.stringify(security)).toMatch(
        /^GET \/a and 1 more: the document's security is (a string|a number|an object), not a list of requirements; calls go without credentials$/,
      );
    }
  });
});

describe('required scopes that are no list', () => {
  it("skips the operation naming the document's requirement, not a field of the tool config", async () => {
    const oauth2 = {
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: 'https://api.example.test/token', scopes: { read: 'r' } } },
    };
    const document = minimal(
      {
        '/a': { get: { operationId: 'a', security: [{ oauth: 'read' }] } },
        '/b': { get: { operationId: 'b', security: [{ oauth: ['read'] }] } },
        '/k': { get: { operationId: 'k', security: [{ key: 'x' }] } },
      },
      {
        components: {
          securitySchemes: { oauth: oauth2, key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
        },
      },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'scopes' });
    expect(Object.keys(tools)).toEqual(['b', 'k']);
    // the warning names the document, not 'REST tool "a": auth.scopes', a field nobody wrote
    expect(warnings).toEqual([
      'skipped GET /a: security scheme "oauth" lists the scopes it requires as a string, not a list of scope names',
    ]);
    expect(tools.b?.auth).toMatchObject({ type: 'oauth2-client-credentials', scopes: ['read'] });
    // an API key takes no scopes: what the requirement lists does not matter
    expect(tools.k?.auth).toMatchObject({ type: 'apiKey', name: 'X-Key' });
  });
});
