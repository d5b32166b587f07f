import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { minimal, rejection } from '../helpers/bad-input.js';

describe('servers that are no list', () => {
  it('stops the import naming what servers is, instead of calling every server URL "/" relative', async () => {
    for (const servers of [{ url: 'https://api.example.test' }, 'https://api.example.test', 5]) {
      const document = minimal({ '/a': { get: { operationId: 'a' } } }, { servers });
      const error = await rejection(importOpenApi({ document }, { namespace: 'servers' }));
      expect(error.code, JSON.stringify(servers)).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(/the document's servers is (an object|a string|a number), not a list/);
      expect(error.message).toContain('pass baseUrl');
    }
    // baseUrl chooses the API's address: the document's servers are not read
    const document = minimal({ '/a': { get: { operationId: 'a' } } }, { servers: { url: 'x' } });
    const { tools } = await importOpenApi(
      { document },
      { namespace: 'servers', baseUrl: 'https://api.example.test' },
    );
    expect(tools.a?.url).toBe('https://api.example.test/a');
  });
});

describe('server entries that are no { url } objects', () => {
  it('stop the import naming the entry, instead of calling every server URL relative', async () => {
    for (const [servers, said] of [
      [['https://api.example.test'], 'servers[0] is a string'],
      [[{ url: 'https://api.example.test' }, null], 'servers[1] is null'],
      [[{ url: 5 }], 'servers[0].url is a number'],
      [[{ description: 'prod' }], 'servers[0] has no url'],
    ] as const) {
      const document = minimal({ '/a': { get: { operationId: 'a' } } }, { servers });
      const error = await rejection(importOpenApi({ document }, { namespace: 'servers' }));
      // the import stops naming the entry, rather than skipping every operation as 'the server URL "" is relative'
      expect(error.code, said).toBe('CONFIG_INVALID');
      expect(error.message, said).toContain(said);
      expect(error.message).toContain('pass baseUrl');
    }
    const document = minimal({ '/a': { get: { operationId: 'a' } } }, { servers: ['x'] });
    const { tools } = await importOpenApi(
      { document },
      { namespace: 'servers', baseUrl: 'https://api.example.test' },
    );
    expect(tools.a?.url).toBe('https://api.example.test/a');
  });
});

describe('servers on local or private addresses', () => {
  const from = 'https://public.example.com/openapi.json';
  const withServers = (servers: unknown[], operationServers?: unknown[]) =>
    minimal(
      { '/a': { get: { operationId: 'a', ...(operationServers ? { servers: operationServers } : {}) } } },
      { servers },
    );

  it('stops the import of a document from a public origin whose server is a local or private address', async () => {
    for (const url of [
      'http://169.254.169.254/latest',
      'http://10.0.0.5',
      'http://192.168.1.1:8080',
      'http://127.0.0.1:9',
      'http://localhost:3000',
      'http://[::1]/',
    ]) {
      // otherwise the model's calls (and the API key) would go wherever the document pointed
      const error = await rejection(importOpenApi({ document: withServers([{ url }]), baseUrl: from }));
      expect(error.code, url).toBe('CONFIG_INVALID');
      expect(error.message).toContain(`server ${new URL(url).origin}`);
      expect(error.message).toContain('local or private address');
      expect(error.message).toContain('pass baseUrl');
    }
    // an operation's own server too
    const own = await rejection(
      importOpenApi({
        document: withServers([{ url: 'https://api.example.com' }], [{ url: 'http://10.1.2.3' }]),
        baseUrl: from,
      }),
    );
    expect(own.message).toContain('server http://10.1.2.3');
  });

  it('keeps public servers, a document from a local address, a local file, and a pinned baseUrl', async () => {
    const cases: [unknown, Record<string, unknown>][] = [
      [{ document: withServers([{ url: 'https://api.example.com:8443' }]), baseUrl: from }, {}],
      [{ document: withServers([{ url: 'http://10.0.0.5' }]), baseUrl: 'http://10.0.0.9/openapi.json' }, {}],
      [{ document: withServers([{ url: 'http://127.0.0.1:8080' }]) }, {}],
      [
        { document: withServers([{ url: 'http://10.0.0.5' }]), baseUrl: from },
        { baseUrl: 'http://10.0.0.5' },
      ],
    ];
    for (const [source, options] of cases) {
      const { tools } = await importOpenApi(source as Parameters<typeof importOpenApi>[0], {
        namespace: 's',
        ...options,
      });
      expect(Object.keys(tools), JSON.stringify(source)).toEqual(['a']);
    }
  });
});
