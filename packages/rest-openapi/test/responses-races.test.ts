import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import {
  type RestToolConfig,
  createOpenApiProvider,
  createRestProvider,
  parseDuration,
  readToolConfig,
  writeToolConfig,
} from '../src/index.js';
import { failure, getTool } from './helpers/bad-input.js';
import { useCleanups } from './helpers/fixtures.js';

const { server, provider, defer } = useCleanups();

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
    expect(ToolError.isInstance(missing) && missing.code).toBe('INVALID_ARGUMENTS');
    expect((missing as Error).message).toContain('tools.yaml: its directory does not exist');
    const ontoFolder = await writeToolConfig(folder, reviewed).catch((caught: unknown) => caught);
    expect(ToolError.isInstance(ontoFolder) && ontoFolder.code).toBe('INVALID_ARGUMENTS');
    expect((ontoFolder as Error).message).toContain('it is a directory');
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
