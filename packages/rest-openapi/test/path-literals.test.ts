import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../src/index.js';
import { getTool, minimal } from './helpers/bad-input.js';
import { objectSchema, useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

/** Path templates with literal text a URL path cannot carry as written, and what must arrive. */
const PATHS: [string, string][] = [
  ['/a b/{id}', '/a%20b/1'],
  ['/ü/{id}', '/%C3%BC/1'],
  ['/100%/{id}', '/100%25/1'],
  ['/keep%20this/{id}', '/keep%20this/1'],
  ['/sub;v=1,2/{id}', '/sub;v=1,2/1'],
  ['/quote"<x>/{id}', '/quote%22%3Cx%3E/1'],
];

describe('literal text in path templates', () => {
  it('percent-encodes what a URL path cannot carry in imported operations, and leaves valid text and escapes alone', async () => {
    const api = await server();
    const paths: Record<string, unknown> = {};
    for (const [index, [path]] of PATHS.entries())
      paths[path] = { get: { operationId: `op${index}`, parameters: [idParameter] } };
    const { tools } = await importOpenApi(
      { document: minimal(paths, { servers: [{ url: api.origin }] }) },
      { namespace: 'p' },
    );
    const rest = provider(tools);
    for (const [index, [path, expected]] of PATHS.entries()) {
      const result = await rest.execute(`op${index}`, { id: '1' }, createToolContext());
      // a space used to fail every call (CONFIG_INVALID, invalid request path) and "ü" went out raw (HTTP 400)
      expect(result.ok, path).toBe(true);
      expect(api.requests.at(-1)?.url, path).toBe(expected);
    }
  });

  it('does the same for a hand-written url', async () => {
    const api = await server();
    const rest = provider({
      get: getTool(`${api.origin}/a b/ü/{id}`, {
        parametersSchema: objectSchema({ id: { type: 'string' } }, ['id']),
      }),
    });
    const result = await rest.execute('get', { id: 'x y' }, createToolContext());
    expect(result.ok).toBe(true);
    expect(api.requests[0]?.url).toBe('/a%20b/%C3%BC/x%20y');
  });
});
