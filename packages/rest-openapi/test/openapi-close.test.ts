import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createOpenApiProvider } from '../src/index.js';
import { failure, minimal, rejection } from './helpers/bad-input.js';
import { countedServer, eventually } from './helpers/counted-server.js';
import { useCleanups } from './helpers/fixtures.js';

const { defer } = useCleanups();

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
    // it used to wait for fetchTimeoutMs and fail TIMEOUT, then say "has not been started"
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
