import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { fakeSecret, objectSchema, useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

describe('redirects to other origins', () => {
  it('does not carry configured headers filled from ${VAR} to an allowed host on another origin', async () => {
    const key = fakeSecret('key');
    const other = await server();
    const api = await server((_request, response) => {
      // the same loopback server under another name: another origin the tool allows
      response.writeHead(302, { location: `${other.origin.replace('127.0.0.1', 'localhost')}/moved` });
      response.end();
    });
    const rest = provider(
      {
        get: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/x`,
          headers: { 'X-Api-Key': '${KEY}', 'X-Tenant': 'acme', 'X-Both': 'k=${KEY}' },
          allowedRedirectHosts: ['localhost'],
          parametersSchema: objectSchema({}),
        },
      },
      { env: { KEY: key } },
    );
    expect((await rest.execute('get', {}, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.headers['x-api-key']).toBe(key);
    expect(other.requests).toHaveLength(1);
    // it used to reach the other origin: a key in `headers` is as much a credential as one in `auth`
    expect(other.requests[0]?.headers['x-api-key']).toBeUndefined();
    expect(other.requests[0]?.headers['x-both']).toBeUndefined();
    expect(other.requests[0]?.headers['x-tenant']).toBe('acme');
  });
});
