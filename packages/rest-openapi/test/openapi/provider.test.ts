import { readFile } from 'node:fs/promises';
import { ToolError, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createOpenApiProvider, importOpenApi } from '../../src/index.js';
import { failure, minimal, rejection } from '../helpers/bad-input.js';
import { countedServer, eventually } from '../helpers/counted-server.js';
import { example } from '../helpers/examples.js';
import { useCleanups } from '../helpers/fixtures.js';
import { echo } from '../helpers/loopback.js';

const { server, defer } = useCleanups();

describe('createOpenApiProvider', () => {
  it('imports in start(), lists REST tools with groups and hashes, and runs calls', async () => {
    const api = await server();
    const provider = createOpenApiProvider(example('3.0', 'petstore.json'), {
      namespace: 'petstore',
      baseUrl: `${api.origin}/v2`,
      include: { tags: ['pet'] },
      env: { PETSTORE_API_KEY: 'key-from-env' },
    });
    defer(() => provider.close());
    expect(provider.listTools()).toEqual([]);
    const early = await provider.execute('getPetById', { petId: 1 }, createToolContext());
    expect(early.ok === false && early.error.code).toBe('PROVIDER_UNAVAILABLE');
    await provider.start?.(AbortSignal.timeout(30_000));
    const specs = provider.listTools();
    expect(specs.length).toBe(8);
    for (const spec of specs) {
      expect(spec.groups).toEqual(['rest', 'rest:petstore']);
      expect(spec.meta?.definitionHash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(specs.find((spec) => spec.name === 'deletePet')?.annotations?.destructiveHint).toBe(true);
    expect(provider.warnings().join('\n')).toContain('petstore_auth');
    const result = await provider.execute('getPetById', { petId: 1 }, createToolContext());
    expect(result.ok).toBe(true);
    expect(api.requests.at(-1)?.url).toBe('/v2/pet/1');
    expect(api.requests.at(-1)?.headers.api_key).toBe('key-from-env');
    expect(provider.secretValues()).toContain('key-from-env');
  });

  it('loads a YAML document from a URL and resolves its relative server against it', async () => {
    const yaml = await readFile(example('3.0', 'petstore.yaml'), 'utf8');
    const relative = yaml.replace(/servers:\n(\s+- url: .*\n)+/, 'servers:\n  - url: /api/v3\n');
    expect(relative).toContain('url: /api/v3');
    const api = await server((request, response) => {
      if (request.url === '/docs/openapi.yaml') {
        response.writeHead(200, { 'content-type': 'application/yaml' });
        return response.end(relative);
      }
      if (request.url === '/docs/missing.yaml') {
        response.writeHead(404);
        return response.end();
      }
      echo(request, response);
    });
    const { tools } = await importOpenApi(`${api.origin}/docs/openapi.yaml`);
    expect(tools.getPetById?.url).toBe(`${api.origin}/api/v3/pet/{petId}`);
    const error = await importOpenApi(`${api.origin}/docs/missing.yaml`).catch((caught: unknown) => caught);
    expect(ToolError.isInstance(error) && error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(String((error as Error).message)).toContain('HTTP 404');
  });
});

describe('starting an OpenAPI provider', () => {
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
    // the rejected first start is not cached: a second start succeeds
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
    // the abort ends the start at once, not when the fetch times out (here two minutes)
    const stopped = await started;
    expect(ToolError.isInstance(stopped) && stopped.code).toBe('CANCELLED');
    expect((stopped as Error).message).toContain('was cancelled');
  });
});

describe('closing an OpenAPI provider while it starts', () => {
  it('stops the document fetch, and answers start() and calls after close as closed', async () => {
    const documents = await countedServer(defer, () => undefined); // never answers
    const provider = createOpenApiProvider(`${documents.origin}/openapi.json`, {
      namespace: 'late',
      env: {},
      fetchTimeoutMs: 10_000,
    });
    defer(() => provider.close());
    const starting = provider.start?.(new AbortController().signal);
    expect(await eventually(() => documents.paths.length === 1)).toBe(true);
    await provider.close();
    const stopped = await rejection(starting ?? Promise.resolve());
    // closed, not TIMEOUT after fetchTimeoutMs, nor "has not been started"
    expect(stopped.code).toBe('PROVIDER_UNAVAILABLE');
    expect(stopped.message).toContain('closed');
    expect(await eventually(async () => (await documents.connections()) === 0)).toBe(true);
    const call = failure(await provider.execute('anything', {}, createToolContext()));
    expect(call.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(call.error.message).toContain('is closed');
    const again = await rejection(provider.start?.(new AbortController().signal) ?? Promise.resolve());
    expect(again.code).toBe('PROVIDER_UNAVAILABLE');
    expect(documents.paths).toHaveLength(1);
    await provider.close();
  });

  it('answers a call after close as closed once it had started', async () => {
    const documents = await countedServer(defer, (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(minimal({ '/a': { get: { operationId: 'a', responses: {} } } })));
    });
    const provider = createOpenApiProvider(`${documents.origin}/openapi.json`, {
      namespace: 'early',
      env: {},
    });
    defer(() => provider.close());
    await provider.start?.(new AbortController().signal);
    expect(provider.toolNames).toEqual(['a']);
    await provider.close();
    const call = failure(await provider.execute('a', {}, createToolContext()));
    expect(call.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(call.error.message).toContain('is closed');
  });
});
