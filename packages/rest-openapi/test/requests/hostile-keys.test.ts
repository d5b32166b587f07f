import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type RestToolConfig, createRestProvider, importOpenApi } from '../../src/index.js';
import { useCleanups } from '../helpers/fixtures.js';

const { server, provider, defer } = useCleanups();

/** Names every plain object answers to without having them. */
const INHERITED = ['constructor', 'toString', 'valueOf', 'hasOwnProperty'] as const;

describe('names that plain objects inherit (constructor, toString...) and __proto__', () => {
  it('never fills an absent argument or unset variable from Object.prototype', async () => {
    const api = await server();
    const post = (path: string, extra: Partial<RestToolConfig>): RestToolConfig => ({
      description: 'T.',
      method: 'POST',
      url: `${api.origin}${path}`,
      parametersSchema: { type: 'object' },
      ...extra,
    });
    const rest = provider({
      path: post('/items/{constructor}', {}),
      bound: post('/bound', {
        parameters: { toString: { in: 'query' as const }, valueOf: { in: 'header' as const, name: 'x-v' } },
      }),
      text: post('/text', { bodyTemplate: { a: 'x{{toString}}y', b: '{{valueOf}}' } }),
      header: post('/header', { headers: { 'x-t': '{{toString}}' } }),
      envHeader: post('/env', { headers: { 'x-e': '${constructor}' } }),
      envBody: post('/env', { bodyTemplate: { e: '${valueOf}' } }),
      envAuth: post('/env', { auth: { type: 'bearer', token: '${toString}' } }),
    });
    const call = (name: string, args: Record<string, unknown> = {}) =>
      rest.execute(name, args, createToolContext());
    // a path argument that was not given: never sent as /items/undefined
    const path = await call('path');
    expect(path.ok || path.error.code).toBe('INVALID_ARGUMENTS');
    expect(path.ok || path.error.message).toContain('"constructor" is required');
    for (const name of ['bound', 'text', 'header']) expect((await call(name)).ok).toBe(true);
    const [bound, text, header] = api.requests;
    expect(bound?.url).toBe('/bound');
    expect(bound?.headers['x-v']).toBeUndefined();
    // a missing argument inside text is '', alone it is dropped: never "undefined" or a function's source
    expect(JSON.parse(text?.body ?? '')).toEqual({ a: 'xy' });
    expect(header?.headers['x-t']).toBe('');
    // ${VAR} names no variable that is unset, and the function source never goes out as a credential
    for (const name of ['envHeader', 'envBody', 'envAuth']) {
      const unset = await call(name);
      expect(unset.ok || unset.error.code, name).toBe('CONFIG_INVALID');
      expect(unset.ok || unset.error.message).toMatch(/environment variable \w+ .*is not set/);
    }
    expect(api.requests).toHaveLength(3);
    expect(rest.secretValues().every((value) => typeof value === 'string')).toBe(true);
    // given as arguments, the same names are ordinary ones
    const given = await call('path', { constructor: 'c' });
    expect(given.ok).toBe(true);
    expect(api.requests.at(-1)?.url).toBe('/items/c');
    for (const name of INHERITED) expect(Object.hasOwn(Object.prototype, name)).toBe(true);
  });

  it('sends a header named __proto__, configured or from a header argument, instead of losing it', async () => {
    const api = await server();
    const tool = (extra: Partial<RestToolConfig>): RestToolConfig => ({
      description: 'T.',
      method: 'GET',
      url: `${api.origin}/h`,
      parametersSchema: { type: 'object' },
      ...extra,
    });
    const rest = provider({
      configured: tool({ headers: JSON.parse('{"__proto__": "configured"}') }),
      argument: tool({ parameters: JSON.parse('{"__proto__": { "in": "header" }}') }),
    });
    for (const [name, args] of [
      ['configured', {}],
      ['argument', JSON.parse('{"__proto__": "argument"}')],
    ] as const) {
      const result = await rest.execute(name, args, createToolContext());
      expect(result.ok, JSON.stringify(result)).toBe(true);
    }
    const proto = (raw: readonly string[] = []) => raw.find((_, index) => raw[index - 1] === '__proto__');
    expect(api.requests.map((request) => proto(request.rawHeaders))).toEqual(['configured', 'argument']);
  });

  it('keeps Swagger 2.0 form fields named __proto__ and a security requirement naming an inherited scheme', async () => {
    const api = await server();
    const document = {
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      host: api.host,
      schemes: ['http'],
      paths: {
        '/form': {
          post: {
            operationId: 'form',
            consumes: ['application/x-www-form-urlencoded'],
            // a scheme the document does not define, named like an Object member
            security: [{ toString: [] }],
            parameters: JSON.parse(
              '[{"name":"__proto__","in":"formData","type":"array","items":{"type":"string"},"collectionFormat":"pipes"},{"name":"b","in":"formData","type":"string"}]',
            ),
            responses: {},
          },
        },
      },
    };
    const { tools, warnings } = await importOpenApi({ document }, { namespace: 'keys' });
    expect(warnings.join('\n')).toContain('security scheme "toString" is not defined');
    const rest = createRestProvider({ namespace: 'keys', tools, env: {} });
    defer(() => rest.close());
    const body = JSON.parse('{"__proto__":["x","y"],"b":"2"}');
    const result = await rest.execute('form', { body }, createToolContext());
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(api.requests[0]?.body).toBe('__proto__=x%7Cy&b=2');
  });
});

describe('an argument named __proto__', () => {
  it('sends an argument named __proto__ in a JSON body and a body template instead of dropping it', async () => {
    const api = await server();
    const rest = provider({
      leftovers: {
        description: 'Creates.',
        method: 'POST',
        url: `${api.origin}/create`,
        parametersSchema: { type: 'object' },
      },
      templated: {
        description: 'Creates from a template.',
        method: 'POST',
        url: `${api.origin}/template`,
        parametersSchema: { type: 'object' },
        bodyTemplate: JSON.parse('{"__proto__": "{{value}}", "plain": 1}'),
      },
    });
    const args = JSON.parse('{"__proto__": {"admin": true}, "name": "x"}') as Record<string, unknown>;
    expect((await rest.execute('leftovers', args, createToolContext())).ok).toBe(true);
    expect(JSON.parse(api.requests[0]?.body ?? '')).toEqual(
      JSON.parse('{"__proto__": {"admin": true}, "name": "x"}'),
    );
    expect(api.requests[0]?.body).toContain('"__proto__"');
    expect((await rest.execute('templated', { value: 'v' }, createToolContext())).ok).toBe(true);
    expect(api.requests[1]?.body).toBe('{"__proto__":"v","plain":1}');
  });
});
