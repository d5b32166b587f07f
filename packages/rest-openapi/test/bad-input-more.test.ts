import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type RestProviderOptions, type RestToolConfig, createRestProvider } from '../src/index.js';
import { failure, getTool, thrown } from './helpers/bad-input.js';
import { objectSchema, useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

describe('bad configuration numbers and shapes', () => {
  it('refuses byte caps, redirects and timeouts that are negative, NaN, text or too large, at creation', () => {
    const url = 'http://127.0.0.1:9/x';
    const toolCases: Array<[Partial<RestToolConfig>, string]> = [
      // -1 used to crash the process from inside the body reader (Buffer.concat with -1)
      [{ maxResponseBytes: -1 }, 'maxResponseBytes'],
      // NaN and text used to switch the cap off (every comparison with NaN is false)
      [{ maxResponseBytes: Number.NaN }, 'maxResponseBytes'],
      [{ maxResponseBytes: '1MB' as unknown as number }, 'maxResponseBytes'],
      [{ maxRedirects: -1 }, 'maxRedirects'],
      // over 2^31-1 ms Node fires the timer after 1 ms: every call timed out at once
      [{ timeoutMs: 1e10 }, 'timeoutMs'],
      [{ timeoutMs: 0 }, 'timeoutMs'],
      [
        { streaming: { mode: 'json-stream', discriminatorField: 'type', doneValue: 'done', maxBytes: -5 } },
        'streaming.maxBytes',
      ],
      [
        {
          streaming: { mode: 'json-stream', discriminatorField: 'type', doneValue: 'done', timeoutMs: '30d' },
        },
        'streaming.timeoutMs',
      ],
      // an unknown place used to send the argument as a cookie
      [
        { parameters: { id: { in: 'body' as 'query' } } },
        'parameters.id.in must be one of path, query, header, cookie',
      ],
    ];
    for (const [extra, field] of toolCases) {
      const error = thrown(() =>
        createRestProvider({ namespace: 'test', tools: { a: getTool(url, extra) }, env: {} }),
      );
      expect(error.code, field).toBe('CONFIG_INVALID');
      expect(error.message).toContain('REST tool "a"');
      expect(error.message).toContain(field);
    }
    const providerCases: Array<[Partial<RestProviderOptions>, string]> = [
      [{ timeoutMs: Number.NaN }, 'timeoutMs'],
      [{ timeoutMs: -5 }, 'timeoutMs'],
      [{ maxResponseBytes: Number.NaN }, 'maxResponseBytes'],
      [{ connections: 0 }, 'connections'],
      [{ connectTimeoutMs: -1 }, 'connectTimeoutMs'],
      [{ headersTimeoutMs: -1 }, 'headersTimeoutMs'],
      [{ bodyTimeoutMs: 1.5 }, 'bodyTimeoutMs'],
    ];
    for (const [extra, field] of providerCases) {
      const error = thrown(() =>
        createRestProvider({ namespace: 'test', tools: { a: getTool(url) }, env: {}, ...extra }),
      );
      expect(error.code, field).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(new RegExp(`^${field} must be`));
    }
    const noTools = thrown(() =>
      createRestProvider({ namespace: 'test', tools: null as unknown as Record<string, RestToolConfig> }),
    );
    expect(noTools.message).toContain('tools must be an object');
    const noNamespace = thrown(() =>
      createRestProvider({ tools: {} } as unknown as Parameters<typeof createRestProvider>[0]),
    );
    expect(noNamespace.message).toContain('namespace must match');
  });

  it('still serves a tool whose timeout is the longest a timer can hold', async () => {
    const api = await server();
    const rest = provider({ a: getTool(`${api.origin}/x`, { timeoutMs: 2_147_483_647 }) });
    const result = await rest.execute('a', {}, createToolContext());
    expect(result.ok).toBe(true);
  });
});

describe('bad argument text', () => {
  it('refuses lone surrogates in path and query arguments with INVALID_ARGUMENTS, and sends nothing', async () => {
    const api = await server();
    const rest = provider({
      a: getTool(`${api.origin}/items/{id}`, {
        parametersSchema: objectSchema({ id: { type: 'string' }, q: { type: 'string' } }, ['id']),
      }),
    });
    for (const args of [{ id: 'a\ud800b' }, { id: 'ok', q: '\udc00' }]) {
      const result = failure(await rest.execute('a', args, createToolContext()));
      expect(result.error.code).toBe('INVALID_ARGUMENTS');
      expect(result.error.message).toContain('lone UTF-16 surrogate');
    }
    expect(api.requests).toHaveLength(0);
    // a well-formed pair (an emoji) is fine
    const emoji = await rest.execute('a', { id: '😀' }, createToolContext());
    expect(emoji.ok).toBe(true);
    expect(api.requests[0]?.url).toBe('/items/%F0%9F%98%80');
  });

  it('refuses header arguments a header cannot carry with INVALID_ARGUMENTS, and sends Latin-1 text', async () => {
    const api = await server();
    const rest = provider({
      templated: getTool(`${api.origin}/t`, {
        headers: { 'x-name': 'user {{name}}' },
        parametersSchema: objectSchema({ name: { type: 'string' } }),
      }),
      bound: getTool(`${api.origin}/b`, {
        parameters: { tag: { in: 'header', name: 'x-tag' } },
        parametersSchema: objectSchema({ tag: { type: 'string' } }),
      }),
    });
    for (const [tool, args, names] of [
      ['templated', { name: '日本' }, 'header x-name (filled from name)'],
      ['templated', { name: 'bell\u0007' }, 'header x-name (filled from name)'],
      ['bound', { tag: 'x\ud800' }, 'header argument "tag"'],
    ] as const) {
      const result = failure(await rest.execute(tool, args, createToolContext()));
      // these used to come back as CONFIG_INVALID ("the request is malformed"), blaming the operator
      expect(result.error.code).toBe('INVALID_ARGUMENTS');
      expect(result.error.message).toContain(names);
      expect(result.error.message).toContain('Latin-1');
    }
    expect(api.requests).toHaveLength(0);
    const latin1 = await rest.execute('bound', { tag: 'café' }, createToolContext());
    expect(latin1.ok).toBe(true);
    expect(Buffer.from(String(api.requests[0]?.headers['x-tag']), 'latin1').toString('latin1')).toBe('café');
  });

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

describe('credentials that are malformed or come back wrong', () => {
  it('refuses malformed auth entries and header names at creation, naming the field', () => {
    const url = 'https://api.example.test/x';
    for (const [extra, expected] of [
      // these used to fail every call, some with "values is not iterable" (EXECUTION_FAILED)
      [{ auth: { type: 'digest', token: 't' } }, 'auth.type must be one of bearer, basic, apiKey'],
      [{ auth: { type: 'bearer' } }, 'auth.token must be a string'],
      [{ auth: [{ type: 'bearer', token: 't' }, null] }, 'auth[1] must be an object'],
      [
        { auth: { type: 'apiKey', in: 'body', name: 'k', value: 'v' } },
        'auth.in must be header, query or cookie',
      ],
      [
        { auth: { type: 'apiKey', in: 'header', name: 'x key', value: 'v' } },
        'is not a valid HTTP header name',
      ],
      [
        {
          auth: {
            type: 'oauth2-client-credentials',
            tokenUrl: 'https://auth.example.test/token',
            clientId: 'id',
            clientSecret: 's',
            scopes: 'read',
          },
        },
        'auth.scopes must be a list of strings',
      ],
      [
        { parameters: { tag: { in: 'header', name: 'x tag' } } },
        'parameters.tag: "x tag" is not a valid HTTP header name',
      ],
    ] as const) {
      const error = thrown(() =>
        createRestProvider({
          namespace: 'test',
          tools: { a: getTool(url, extra as Partial<RestToolConfig>) },
        }),
      );
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain(expected);
    }
  });

  it('stops reading a token endpoint past 64 KiB and refuses a token a header cannot carry, without caching it', async () => {
    let answer: 'huge' | 'broken' | 'good' = 'huge';
    const tokens = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      if (answer === 'huge') response.end(JSON.stringify({ access_token: 'a'.repeat(1024 * 1024) }));
      else
        response.end(JSON.stringify({ access_token: answer === 'broken' ? 'tok\r\nx-evil: 1' : 'tok-ok' }));
    });
    const api = await server();
    const rest = provider({
      me: getTool(`${api.origin}/me`, {
        auth: {
          type: 'oauth2-client-credentials',
          tokenUrl: `${tokens.origin}/token`,
          clientId: 'id',
          clientSecret: 'secret',
        },
      }),
    });
    const huge = failure(await rest.execute('me', {}, createToolContext()));
    expect(huge.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(huge.error.message).toContain('more than 64 KiB');
    answer = 'broken';
    const broken = failure(await rest.execute('me', {}, createToolContext()));
    // used to be cached and then refused by undici as CONFIG_INVALID on every call
    expect(broken.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(broken.error.message).toContain('characters a header cannot carry');
    expect(api.requests).toHaveLength(0);
    answer = 'good';
    expect((await rest.execute('me', {}, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.headers.authorization).toBe('Bearer tok-ok');
    expect(tokens.requests).toHaveLength(3);
  });
});
