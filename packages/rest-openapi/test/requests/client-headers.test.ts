import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { getTool, minimal, thrown } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';

const { server, provider } = useCleanups();

/** Headers the HTTP client owns: routing (Host) and message framing. */
const CLIENT_HEADERS = [
  'Host',
  'Content-Length',
  'Transfer-Encoding',
  'Connection',
  'Keep-Alive',
  'Upgrade',
  'Expect',
  'TE',
  'Trailer',
];

describe('headers the HTTP client owns', () => {
  it('are no arguments of an imported operation', async () => {
    const api = await server();
    const parameters = [...CLIENT_HEADERS, 'X-Trace'].map((name) => ({
      name,
      in: 'header',
      schema: { type: 'string' },
    }));
    const document = minimal(
      { '/a': { get: { operationId: 'a', parameters } } },
      { servers: [{ url: api.origin }] },
    );
    const { tools } = await importOpenApi({ document }, { namespace: 'h' });
    // the model never chooses the Host header (another virtual host on the same address) or the framing
    expect(Object.keys(tools.a?.parametersSchema.properties ?? {})).toEqual(['X-Trace']);
    const result = await provider(tools).execute('a', { 'X-Trace': 't' }, createToolContext());
    expect(result.ok).toBe(true);
    expect(api.requests[0]?.headers.host).toBe(api.host);
    expect(api.requests[0]?.headers['x-trace']).toBe('t');
  });

  it('skips an API key scheme that would send the key as one of them, keeping its operations', async () => {
    const api = await server();
    const document = minimal(
      { '/a': { get: { operationId: 'a', security: [{ key: [] }] } }, '/b': { get: { operationId: 'b' } } },
      {
        servers: [{ url: api.origin }],
        components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'Host' } } },
      },
    );
    const { tools, warnings, diagnostics } = await importOpenApi({ document }, { namespace: 'h' });
    // the key would go out as the Host header: the scheme is left out, never sent
    expect(Object.keys(tools)).toEqual(['a', 'b']);
    expect(tools.a?.auth).toBeUndefined();
    expect(diagnostics).toMatchObject([{ code: 'SECURITY_SCHEME_SKIPPED', scheme: 'key' }]);
    expect(warnings.join('\n')).toContain('is a header the HTTP client sets itself');
    const key = 'k'.repeat(12);
    const rest = provider(tools, { env: { H_KEY: key } });
    expect((await rest.execute('a', {}, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.headers.host).toBe(api.host);
    expect(JSON.stringify(api.requests)).not.toContain(key);
  });

  it('refuses them in hand-written header arguments, argument templates and auth entries, and keeps a fixed Host', async () => {
    const api = await server();
    const schema = objectSchema({ h: { type: 'string' } });
    const refused = [
      getTool(`${api.origin}/a`, {
        parametersSchema: schema,
        parameters: { h: { in: 'header', name: 'Host' } },
      }),
      getTool(`${api.origin}/a`, { parametersSchema: schema, headers: { Host: '{{h}}' } }),
      getTool(`${api.origin}/a`, { headers: { 'Content-Length': '5' } }),
      getTool(`${api.origin}/a`, { headers: { connection: 'close' } }),
      getTool(`${api.origin}/a`, {
        auth: { type: 'apiKey', in: 'header', name: 'Transfer-Encoding', value: 'x' },
      }),
    ];
    for (const [index, tool] of refused.entries()) {
      const error = thrown(() => provider({ t: tool }));
      expect(error.code, String(index)).toBe('CONFIG_INVALID');
      expect(error.message, String(index)).toContain('is set by the HTTP client');
    }
    // an operator may still route by a fixed Host (a virtual host behind an address)
    const routed = provider({ t: getTool(`${api.origin}/a`, { headers: { Host: 'api.internal' } }) });
    expect((await routed.execute('t', {}, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.headers.host).toBe('api.internal');
  });
});
