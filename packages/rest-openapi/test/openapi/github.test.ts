import { compileSchema, createToolContext, sanitizeToolName } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRestProvider, importOpenApi } from '../../src/index.js';
import { GITHUB_DESCRIPTION } from '../helpers/examples.js';
import { fakeSecret, useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, defer } = useCleanups();

interface Route {
  readonly method: string;
  readonly path: string;
  readonly query?: Record<string, string | string[]>;
  readonly body?: unknown;
}

// What a correct client sends for each call below; the server answers 404 to anything else.
const ROUTES: Record<string, { args: Record<string, unknown>; expect: Route }> = {
  'repos/get': {
    args: { owner: 'octo-org', repo: 'hello world' },
    expect: { method: 'GET', path: '/repos/octo-org/hello%20world' },
  },
  'issues/list-for-repo': {
    args: {
      owner: 'octo-org',
      repo: 'tools',
      state: 'open',
      labels: 'bug,ui',
      sort: 'updated',
      per_page: 50,
      page: 2,
    },
    expect: {
      method: 'GET',
      path: '/repos/octo-org/tools/issues',
      query: { state: 'open', labels: 'bug,ui', sort: 'updated', per_page: '50', page: '2' },
    },
  },
  'issues/create': {
    args: {
      owner: 'octo-org',
      repo: 'tools',
      body: { title: 'Found a bug', labels: ['bug'], body: 'It breaks & fails?' },
    },
    expect: {
      method: 'POST',
      path: '/repos/octo-org/tools/issues',
      body: { title: 'Found a bug', labels: ['bug'], body: 'It breaks & fails?' },
    },
  },
  'repos/get-content': {
    args: { owner: 'octo-org', repo: 'tools', path: 'README.md', ref: 'feature/x' },
    expect: { method: 'GET', path: '/repos/octo-org/tools/contents/README.md', query: { ref: 'feature/x' } },
  },
  'search/repos': {
    args: { q: 'tetris language:assembly', sort: 'stars', order: 'desc' },
    expect: {
      method: 'GET',
      path: '/search/repositories',
      query: { q: 'tetris language:assembly', sort: 'stars', order: 'desc' },
    },
  },
  'issues/add-labels': {
    args: { owner: 'o', repo: 'r', issue_number: 17, body: { labels: ['a', 'b'] } },
    expect: { method: 'POST', path: '/repos/o/r/issues/17/labels', body: { labels: ['a', 'b'] } },
  },
};

function matches(route: Route, method: string, url: string, body: string): boolean {
  const [path, search = ''] = url.split('?');
  if (method !== route.method || path !== route.path) return false;
  const query = new URLSearchParams(search);
  const expected = route.query ?? {};
  if ([...query.keys()].sort().join() !== Object.keys(expected).sort().join()) return false;
  for (const [key, value] of Object.entries(expected)) {
    if (JSON.stringify(query.getAll(key)) !== JSON.stringify(Array.isArray(value) ? value : [value]))
      return false;
  }
  if (route.body !== undefined && JSON.stringify(JSON.parse(body || 'null')) !== JSON.stringify(route.body))
    return false;
  return true;
}

describe("GitHub's REST description (@octokit/openapi)", () => {
  it('imports every operation, every input schema compiles, and calls go to the right method, path and query', async () => {
    const token = fakeSecret('ghp');
    const api = await server((request, response) => {
      const route = Object.values(ROUTES).find((candidate) =>
        matches(candidate.expect, request.method, request.url, request.body),
      );
      if (!route)
        return sendJson(response, 404, { message: 'Not Found', got: `${request.method} ${request.url}` });
      if (request.headers.authorization !== `Bearer ${token}`)
        return sendJson(response, 401, { message: 'Bad credentials' });
      sendJson(response, 200, { ok: true, path: route.expect.path });
    });
    const { tools, warnings, info } = await importOpenApi(GITHUB_DESCRIPTION, {
      namespace: 'github',
      baseUrl: api.origin,
      toolDefaults: {
        auth: { type: 'bearer', token: '${GITHUB_TOKEN}' },
        headers: { 'x-github-api-version': '2022-11-28' },
      },
    });
    expect(info.specification).toBe('3.0');
    const names = Object.keys(tools);
    expect(names.length).toBeGreaterThan(900);
    expect(warnings).toEqual([]);
    for (const [name, tool] of Object.entries(tools)) {
      expect(() => compileSchema(tool.parametersSchema), name).not.toThrow();
    }

    const rest = createRestProvider({ namespace: 'github', tools, env: { GITHUB_TOKEN: token } });
    defer(() => rest.close());
    const specs = rest.listTools();
    expect(specs).toHaveLength(names.length);
    expect(new Set(specs.map((spec) => spec.meta?.definitionHash)).size).toBe(names.length);

    for (const [operationId, call] of Object.entries(ROUTES)) {
      const name = sanitizeToolName(operationId);
      expect(tools[name]?.operationId).toBe(operationId);
      const before = api.requests.length;
      const result = await rest.execute(name, call.args, createToolContext());
      const request = api.requests[before];
      expect(
        result.ok,
        `${operationId} -> ${request?.method} ${request?.url}: ${result.ok ? '' : result.error.message}`,
      ).toBe(true);
      expect(request?.headers['x-github-api-version']).toBe('2022-11-28');
    }
    expect(api.requests).toHaveLength(Object.keys(ROUTES).length);
    expect(rest.secretValues()).toContain(token);

    const invalid = await rest.execute(
      'issues_create',
      { owner: 'o', repo: 'r', body: { labels: ['no title'] } },
      createToolContext(),
    );
    expect(invalid.ok === false && invalid.error.code).toBe('INVALID_ARGUMENTS');
    expect(api.requests).toHaveLength(Object.keys(ROUTES).length);
  }, 120_000);
});
