import { createHash } from 'node:crypto';
import { type ToolResult, createToolContext, stableStringify } from '@toolplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type RestProvider, type RestToolConfig, createRestProvider } from '../src/index.js';
import { type Loopback, echo, startLoopback } from './helpers/loopback.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(handler: Parameters<typeof startLoopback>[0] = echo): Promise<Loopback> {
  const loopback = await startLoopback(handler);
  cleanups.push(() => loopback.close());
  return loopback;
}

function provider(
  tools: Record<string, RestToolConfig>,
  extra: Partial<Parameters<typeof createRestProvider>[0]> = {},
): RestProvider {
  const created = createRestProvider({ namespace: 'test', tools, env: {}, ...extra });
  cleanups.push(() => created.close());
  return created;
}

const objectSchema = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

function structured(result: ToolResult): Record<string, unknown> {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.structured as Record<string, unknown>;
}

describe('createRestProvider: requests', () => {
  it('builds path, query and JSON body from arguments and reports specs with REST groups and a definition hash', async () => {
    const api = await server();
    const rest = provider({
      get_user: {
        description: 'Gets a user.',
        method: 'GET',
        url: `${api.origin}/users/{id}?fixed=1`,
        parametersSchema: objectSchema(
          { id: { type: 'string' }, expand: { type: 'boolean' }, tags: { type: 'array' } },
          ['id'],
        ),
      },
      create_user: {
        description: 'Creates a user.',
        method: 'POST',
        url: `${api.origin}/users`,
        parametersSchema: objectSchema({ name: { type: 'string' }, age: { type: 'number' } }, ['name']),
        queue: 'users',
        cache: '30s',
      },
    });
    const got = structured(
      await rest.execute('get_user', { id: 'ada', expand: true, tags: ['a', 'b'] }, createToolContext()),
    );
    expect(got.method).toBe('GET');
    expect(got.url).toBe('/users/ada?fixed=1&expand=true&tags=%5B%22a%22%2C%22b%22%5D');
    const created = structured(
      await rest.execute('create_user', { name: 'Ada', age: 36 }, createToolContext()),
    );
    expect(created.method).toBe('POST');
    expect(JSON.parse(created.body as string)).toEqual({ name: 'Ada', age: 36 });
    expect((created.headers as Record<string, string>)['content-type']).toBe('application/json');

    const specs = rest.listTools();
    const create = specs.find((spec) => spec.name === 'create_user');
    expect(create?.groups).toEqual(['rest', 'rest:test']);
    expect(create?.queue).toBe('users');
    expect(create?.cacheTtlMs).toBe(30_000);
    expect(create?.sideEffect).toBe('mutating');
    expect(specs.find((spec) => spec.name === 'get_user')?.sideEffect).toBe('read');
    const expectedHash = createHash('sha256')
      .update(
        stableStringify({
          name: 'create_user',
          description: 'Creates a user.',
          inputSchema: create?.inputSchema,
          outputSchema: undefined,
        }),
      )
      .digest('hex');
    expect(create?.meta?.definitionHash).toBe(expectedHash);
  });

  it('expands complex query arguments when asked, and honours queryParamNames on POST', async () => {
    const api = await server();
    const rest = provider({
      search: {
        description: 'Search.',
        method: 'POST',
        url: `${api.origin}/search`,
        hasComplexQueryParams: true,
        queryParamNames: ['filter', 'ids'],
        parametersSchema: objectSchema({
          filter: { type: 'object' },
          ids: { type: 'array' },
          text: { type: 'string' },
        }),
      },
    });
    const got = structured(
      await rest.execute(
        'search',
        { filter: { state: 'open', owner: { login: 'x y' } }, ids: [1, 2], text: 'hi' },
        createToolContext(),
      ),
    );
    expect(got.url).toBe('/search?filter[state]=open&filter[owner][login]=x%20y&ids=1&ids=2');
    expect(JSON.parse(got.body as string)).toEqual({ text: 'hi' });
  });

  it('fills a body template with typed values and headers from the environment and arguments', async () => {
    const api = await server();
    const rest = provider(
      {
        ask: {
          description: 'Ask.',
          method: 'POST',
          url: `${api.origin}/ask`,
          headers: { 'x-api-key': '${ASK_KEY}', 'x-trace': 'trace-{{trace}}' },
          bodyTemplate: {
            model: '${MODEL}',
            input: { text: '{{question}}', limit: '{{limit}}' },
            note: 'asked: {{question}}',
          },
          parametersSchema: objectSchema({
            question: { type: 'string' },
            limit: { type: 'integer' },
            trace: { type: 'string' },
            page: { type: 'integer' },
          }),
        },
      },
      { env: { ASK_KEY: 'k-123456', MODEL: 'small' } },
    );
    const got = structured(
      await rest.execute('ask', { question: 'why?', limit: 3, trace: 'abc', page: 2 }, createToolContext()),
    );
    expect(JSON.parse(got.body as string)).toEqual({
      model: 'small',
      input: { text: 'why?', limit: 3 },
      note: 'asked: why?',
    });
    const headers = got.headers as Record<string, string>;
    expect(headers['x-api-key']).toBe('k-123456');
    expect(headers['x-trace']).toBe('trace-abc');
    expect(got.url).toBe('/ask?page=2');
    expect(rest.secretValues()).toContain('k-123456');
  });

  it('refuses arguments that do not match the schema, and unknown tools', async () => {
    const api = await server();
    const rest = provider({
      get: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/x/{id}`,
        parametersSchema: objectSchema({ id: { type: 'integer' } }, ['id']),
      },
    });
    const bad = await rest.execute('get', { id: 'seven' }, createToolContext());
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('INVALID_ARGUMENTS');
      expect(bad.error.message).toContain('args.id');
    }
    const missing = await rest.execute('nope', {}, createToolContext());
    expect(missing.ok === false && missing.error.code).toBe('TOOL_NOT_FOUND');
    expect(api.requests).toHaveLength(0);
  });

  it('reports a missing environment variable as CONFIG_INVALID naming the variable', async () => {
    const api = await server();
    const rest = provider({
      get: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/x`,
        headers: { authorization: 'Bearer ${NOT_SET_TOKEN}' },
        parametersSchema: objectSchema({}),
      },
    });
    const result = await rest.execute('get', {}, createToolContext());
    expect(result.ok === false && result.error.code).toBe('CONFIG_INVALID');
    expect(result.ok === false && result.error.message).toContain('NOT_SET_TOKEN');
    expect(api.requests).toHaveLength(0);
  });

  it('rejects bad configurations at creation with CONFIG_INVALID', () => {
    const base = { description: 'd', method: 'GET' as const, parametersSchema: objectSchema({}) };
    expect(() => createRestProvider({ namespace: 'bad name', tools: {} })).toThrow(/namespace/);
    expect(() => createRestProvider({ namespace: 'a', tools: { t: { ...base, url: 'ftp://x' } } })).toThrow(
      /url must start/,
    );
    expect(() =>
      createRestProvider({
        namespace: 'a',
        tools: { t: { ...base, url: 'http://x', method: 'FETCH' as 'GET' } },
      }),
    ).toThrow(/method/);
    expect(() =>
      createRestProvider({
        namespace: 'a',
        tools: {
          t: { ...base, url: 'http://x', parametersSchema: [] as unknown as Record<string, unknown> },
        },
      }),
    ).toThrow(/parametersSchema/);
    expect(() =>
      createRestProvider({
        namespace: 'a',
        tools: { t: { ...base, url: 'http://x', headers: { 'bad header': 'v' } } },
      }),
    ).toThrow(/header name/);
    expect(() =>
      createRestProvider({ namespace: 'a', tools: { t: { ...base, url: 'http://x', cache: 'soon' } } }),
    ).toThrow(/cache/);
  });
});
