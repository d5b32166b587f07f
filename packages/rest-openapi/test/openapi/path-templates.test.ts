import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { getTool, minimal, thrown } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';

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
      // sent as written, a space fails every call (invalid request path) and a raw "ü" gets HTTP 400
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

describe('path templates and parameters that disagree', () => {
  it('adds an undeclared {placeholder} as a required string and leaves out a path parameter with no place', async () => {
    const api = await server();
    const document = minimal(
      {
        '/users/{userId}/repos': {
          get: {
            operationId: 'listRepos',
            parameters: [
              { name: 'org', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'page', in: 'query', schema: { type: 'integer' } },
            ],
          },
        },
      },
      { servers: [{ url: api.origin }] },
    );
    const { tools, warnings } = await importOpenApi({ document });
    const tool = tools.listRepos;
    expect(tool?.parametersSchema).toMatchObject({
      properties: { page: { type: 'integer' }, userId: { type: 'string' } },
      required: ['userId'],
    });
    expect(tool?.parametersSchema).not.toHaveProperty('properties.org');
    expect(warnings).toContain(
      'GET /users/{userId}/repos: {userId} in the path is not declared as a parameter; it was added as a required string',
    );
    expect(warnings).toContain(
      'GET /users/{userId}/repos: path parameter "org" is not in the path; it was left out',
    );
    // userId is both in the schema (additionalProperties: false) and filled into the path, so the
    // call goes through
    const rest = provider(tools);
    const result = await rest.execute('listRepos', { userId: 'octo cat', page: 2 }, createToolContext());
    expect(result.ok).toBe(true);
    expect(api.requests[0]?.url).toBe('/users/octo%20cat/repos?page=2');
  });
});

describe('path templates with unmatched braces', () => {
  it('skips an imported operation whose path has a brace outside a {name}, and keeps the rest', async () => {
    const api = await server();
    const document = minimal(
      {
        '/a/{id': { get: { operationId: 'open' } },
        '/b/id}': { get: { operationId: 'close' } },
        '/c/{}': { get: { operationId: 'empty' } },
        '/d/{{x}}': {
          get: {
            operationId: 'doubled',
            parameters: [{ name: 'x', in: 'path', required: true, schema: { type: 'string' } }],
          },
        },
        '/e/{a}{b}': { get: { operationId: 'adjacent' } },
      },
      { servers: [{ url: api.origin }] },
    );
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'braces' });
    // imported, they would be called with "{" and "}" sent raw in the path
    expect(Object.keys(tools)).toEqual(['adjacent']);
    for (const path of ['/a/{id', '/b/id}', '/c/{}', '/d/{{x}}'])
      expect(warnings.join('\n')).toContain(`${path}: tool`);
    expect(warnings.join('\n')).toContain('has a "{" or "}" outside a {name} placeholder');
  });

  it('refuses a hand-written url whose path has an unmatched brace when the provider is created', async () => {
    const api = await server();
    for (const path of ['/items/{id', '/items/id}', '/items/{}', '/items/{{id}}']) {
      const error = thrown(() => provider({ get: getTool(`${api.origin}${path}`) }));
      expect(error.code, path).toBe('CONFIG_INVALID');
      expect(error.message).toContain('outside a {name} placeholder');
    }
    expect(api.requests).toHaveLength(0);
  });
});
