import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, type ToolResult, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import {
  type RestProviderOptions,
  type RestToolConfig,
  createOpenApiProvider,
  createRestProvider,
  parseDuration,
  readToolConfig,
  writeToolConfig,
} from '../src/index.js';
import { objectSchema, useCleanups } from './helpers/fixtures.js';

const { server, provider, defer } = useCleanups();

function thrown(make: () => unknown): ToolError {
  try {
    const made = make() as { close?: () => Promise<void> } | undefined;
    void made?.close?.();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw new Error(`expected a ToolError, got ${String(error)}`);
  }
  throw new Error('expected the factory to throw');
}

function failure(result: ToolResult) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.content)}`);
  return result;
}

const getTool = (url: string, extra: Partial<RestToolConfig> = {}): RestToolConfig => ({
  description: 'Gets a thing.',
  method: 'GET',
  url,
  parametersSchema: objectSchema({}),
  ...extra,
});

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

describe('responses that lie or break', () => {
  it('keeps the partial answer of a stream whose connection drops or whose caller cancels', async () => {
    const api = await server((request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write('{"type":"token","text":"Hel"}\n{"type":"token","text":"lo"}\n');
      // the upstream dies mid-answer, or keeps the stream open until the caller gives up
      if (request.url === '/drop') setTimeout(() => response.socket?.destroy(), 50);
    });
    const streaming = {
      mode: 'json-stream' as const,
      discriminatorField: 'type',
      doneValue: 'done',
      tokenValue: 'token',
      tokenField: 'text',
    };
    const rest = provider({
      drop: getTool(`${api.origin}/drop`, { streaming }),
      hang: getTool(`${api.origin}/hang`, { streaming }),
    });
    const dropped = failure(await rest.execute('drop', {}, createToolContext()));
    expect(dropped.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(dropped.content).toEqual([{ type: 'text', text: 'Hello' }]);

    const controller = new AbortController();
    const ctx = createToolContext({
      signal: controller.signal,
      progress: (update) => {
        // cancel once both tokens arrived
        if (update.progress === 2) controller.abort();
      },
    });
    const cancelled = failure(await rest.execute('hang', {}, ctx));
    expect(cancelled.error.code).toBe('CANCELLED');
    expect(cancelled.content).toEqual([{ type: 'text', text: 'Hello' }]);
  });

  it('parses JSON that starts with a UTF-8 byte order mark', async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]));
    });
    const result = await provider({ a: getTool(`${api.origin}/bom`) }).execute('a', {}, createToolContext());
    if (!result.ok) throw new Error(result.error.message);
    expect(result.structured).toEqual({ a: 1 });
    expect(result.content).toEqual([{ type: 'text', text: '{"a":1}' }]);
  });

  it('says a body marked gzip does not decode, and keeps the status of an error response that lies', async () => {
    const api = await server((request, response) => {
      response.writeHead(request.url === '/missing' ? 404 : 200, {
        'content-type': 'text/plain',
        'content-encoding': 'gzip',
      });
      response.end(request.url === '/missing' ? 'no such item' : 'plain text, not gzip');
    });
    const rest = provider({
      ok: getTool(`${api.origin}/fine`),
      missing: getTool(`${api.origin}/missing`),
    });
    const lying = failure(await rest.execute('ok', {}, createToolContext()));
    expect(lying.error.code).toBe('EXECUTION_FAILED');
    expect(lying.error.message).toContain('content-encoding: gzip but its body does not decode');
    const missing = failure(await rest.execute('missing', {}, createToolContext()));
    expect(missing.error.code).toBe('EXECUTION_FAILED');
    expect(missing.error.message).toContain('HTTP 404');
    expect(missing.error.details?.status).toBe(404);
  });
});

describe('close and start races', () => {
  it('ends calls in flight when the provider closes with PROVIDER_UNAVAILABLE saying so', async () => {
    let arrived = 0;
    const api = await server(() => {
      arrived++; // never answers
    });
    const rest = createRestProvider({
      namespace: 'test',
      tools: { slow: getTool(`${api.origin}/slow`) },
      env: {},
    });
    const calls = Array.from({ length: 4 }, () => rest.execute('slow', {}, createToolContext()));
    for (let wait = 0; wait < 200 && arrived < 4; wait++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    await Promise.all([rest.close(), rest.close()]);
    for (const result of await Promise.all(calls)) {
      // used to be EXECUTION_FAILED "The client is destroyed"
      expect(failure(result).error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(failure(result).error.message).toContain('its provider was closed while it ran');
    }
    const after = failure(await rest.execute('slow', {}, createToolContext()));
    expect(after.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(after.error.message).toContain('is closed');
  });

  it('lets a failed start of an OpenAPI provider be retried, and stops a start when its signal aborts', async () => {
    let available = false;
    const api = await server((request, response) => {
      if (request.url === '/hang') return;
      if (!available) {
        response.writeHead(503);
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ openapi: '3.0.3', info: {}, paths: { '/x': { get: { operationId: 'x' } } } }),
      );
    });
    const openapi = createOpenApiProvider(`${api.origin}/openapi.json`, {
      namespace: 'doc',
      baseUrl: api.origin,
    });
    defer(() => openapi.close());
    const first = await openapi.start?.(new AbortController().signal).catch((error: unknown) => error);
    expect(ToolError.isInstance(first) && first.code).toBe('PROVIDER_UNAVAILABLE');
    available = true;
    // the rejected first start used to be cached: the provider stayed down for good
    await openapi.start?.(new AbortController().signal);
    expect(openapi.toolNames).toEqual(['x']);

    const hanging = createOpenApiProvider(`${api.origin}/hang`, {
      namespace: 'doc',
      baseUrl: api.origin,
      fetchTimeoutMs: 120_000,
    });
    defer(() => hanging.close());
    const controller = new AbortController();
    const started = hanging.start?.(controller.signal).catch((error: unknown) => error);
    for (let wait = 0; wait < 200 && !api.requests.some((request) => request.url === '/hang'); wait++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    controller.abort();
    // the abort used to be ignored until the fetch timed out (here two minutes)
    const stopped = await started;
    expect(ToolError.isInstance(stopped) && stopped.code).toBe('CANCELLED');
    expect((stopped as Error).message).toContain('was cancelled');
  });
});

describe('tool config files', () => {
  it('never overwrites a reviewed file with configs it could not read back, and reports write errors', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'rest-openapi-write-'));
    defer(() => rm(folder, { recursive: true, force: true }));
    const file = join(folder, 'tools.json');
    const reviewed = { a: getTool('https://api.example.test/a') };
    await writeToolConfig(file, reviewed);
    const before = await readFile(file, 'utf8');
    for (const bad of [
      { a: getTool('https://api.example.test/a', { maxResponseBytes: -1 }) },
      null as unknown as Record<string, RestToolConfig>,
    ]) {
      // these used to be written, leaving a file readToolConfig refuses in place of the reviewed one
      const error = await writeToolConfig(file, bad).catch((caught: unknown) => caught);
      expect(ToolError.isInstance(error) && error.code).toBe('CONFIG_INVALID');
    }
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await readToolConfig(file)).toEqual(reviewed);
    const missing = await writeToolConfig(join(folder, 'no-such-folder', 'tools.yaml'), reviewed).catch(
      (caught: unknown) => caught,
    );
    // used to be a bare ENOENT error
    expect(ToolError.isInstance(missing) && missing.code).toBe('CONFIG_INVALID');
    expect((missing as Error).message).toContain('cannot write the tool config');
    expect(await readdir(folder)).toEqual(['tools.json']);
  });

  it('refuses a duration too large to be a number', () => {
    // "1000...0h" used to come back as Infinity
    expect(() => parseDuration(`1${'0'.repeat(400)}h`, 'cache')).toThrow(/cache must be/);
    expect(() =>
      createRestProvider({
        namespace: 'test',
        tools: { a: getTool('https://api.example.test/a', { cache: `1${'0'.repeat(400)}s` }) },
      }),
    ).toThrow(/cache must be/);
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
