import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/index.js';
import { minimal, rejection } from '../helpers/bad-input.js';
import { fakeSecret, useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, defer } = useCleanups();

/** A document whose one operation takes a query parameter with its schema in another document. */
const referring = (ref: string) =>
  minimal({
    '/a': { get: { operationId: 'a', parameters: [{ name: 'q', in: 'query', schema: { $ref: ref } }] } },
  });

describe('documents an OpenAPI document refers to', () => {
  it('reads a referenced document on the same origin, no further than maxDocumentBytes', async () => {
    let sent = 0;
    const api = await server((request, response) => {
      if (request.url === '/openapi.json') return sendJson(response, 200, referring('./schemas/big.json'));
      if (request.url === '/schemas/small.json') return sendJson(response, 200, { type: 'integer' });
      // a referenced document of 64 MiB and more, cut off at the limit
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"type":"string","description":"');
      const chunk = 'x'.repeat(64 * 1024);
      const more = (): void => {
        while (sent < 1024 && !response.destroyed) {
          sent++;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end('"}');
      };
      more();
    });
    const error = await rejection(importOpenApi(`${api.origin}/openapi.json`, { maxDocumentBytes: 100_000 }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`${api.origin}/schemas/big.json`);
    expect(error.message).toContain('larger than 100000 bytes; raise maxDocumentBytes');
    expect(sent).toBeLessThan(1024); // the server was cut off, not read to the end

    // a referenced document within the limit on the same origin is read, so a document on a
    // private host can be split into files
    const small = await server((request, response) => {
      if (request.url === '/openapi.json') return sendJson(response, 200, referring('./schemas/small.json'));
      return sendJson(response, 200, { type: 'integer' });
    });
    const { tools } = await importOpenApi(`${small.origin}/openapi.json`, { maxDocumentBytes: 100_000 });
    expect(tools.a?.parametersSchema).toMatchObject({ properties: { q: { type: 'integer' } } });
  });

  it('gives up on a referenced document that never ends with TIMEOUT naming it', async () => {
    const api = await server((request, response) => {
      if (request.url === '/openapi.json') return sendJson(response, 200, referring('/endless.json'));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"type":'); // and nothing more, ever
    });
    const error = await rejection(importOpenApi(`${api.origin}/openapi.json`, { fetchTimeoutMs: 500 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain(`${api.origin}/endless.json`);
    expect(error.message).toContain('raise fetchTimeoutMs');
  });

  it('gives TIMEOUT naming the document when the main document never ends', async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"openapi":'); // a ToolError, not a bare DOMException
    });
    const error = await rejection(importOpenApi(`${api.origin}/openapi.json`, { fetchTimeoutMs: 500 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain(`${api.origin}/openapi.json took longer than 500 ms`);
  });

  it('reads the referenced documents together no further than maxDocumentBytes', async () => {
    const names = Array.from({ length: 8 }, (_, index) => `p${index}`);
    const document = minimal({
      '/a': {
        get: {
          operationId: 'a',
          parameters: names.map((name) => ({ name, in: 'query', schema: { $ref: `./${name}.json` } })),
        },
      },
    });
    const api = await server((request, response) => {
      if (request.url === '/openapi.json') return sendJson(response, 200, document);
      // each is within the limit; eight of them are not
      return sendJson(response, 200, { type: 'string', description: 'y'.repeat(30_000) });
    });
    const error = await rejection(importOpenApi(`${api.origin}/openapi.json`, { maxDocumentBytes: 100_000 }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('larger than 100000 bytes together');
    expect(error.message).toMatch(new RegExp(`the last one read was ${api.origin}/p\\d\\.json`));
  });

  it('refuses a reference to another local address and sends it nothing', async () => {
    const other = await server((_request, response) => sendJson(response, 200, { type: 'integer' }));
    const api = await server((_request, response) =>
      sendJson(response, 200, referring(`${other.origin}/schema.json`)),
    );
    const error = await rejection(importOpenApi(`${api.origin}/openapi.json`));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`refers to ${other.origin}/schema.json, a local or private address`);
    expect(other.requests).toHaveLength(0);
  });

  it('stops fetching a referenced document when the signal aborts (CANCELLED)', async () => {
    const api = await server((request, response) => {
      if (request.url === '/openapi.json') return sendJson(response, 200, referring('./hang.json'));
      // never answers
    });
    const controller = new AbortController();
    const importing = rejection(
      importOpenApi(`${api.origin}/openapi.json`, { signal: controller.signal, fetchTimeoutMs: 120_000 }),
    );
    for (let wait = 0; wait < 400 && !api.requests.some((request) => request.url === '/hang.json'); wait++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    controller.abort();
    // the referenced document's fetch follows the signal too, not only its own timeout
    const error = await importing;
    expect(error.code).toBe('CANCELLED');
    expect(error.message).toContain(`${api.origin}/hang.json was cancelled`);
  });

  it('reads a file a local document refers to no further than maxDocumentBytes', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'rest-openapi-refs-'));
    defer(() => rm(folder, { recursive: true, force: true }));
    const file = join(folder, 'openapi.json');
    // a device that never ends would be read until memory ran out
    await writeFile(file, JSON.stringify(referring('/dev/zero')));
    const error = await rejection(importOpenApi(file, { maxDocumentBytes: 64 * 1024 }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('/dev/zero is larger than 65536 bytes; raise maxDocumentBytes');
  });

  it('parses a referenced YAML document with the same alias limit as the main document', async () => {
    // 300 bytes of YAML whose aliases expand ten-fold per level: 10^9 strings when copied out
    let laughs = 'l0: &l0 ["x","x","x","x","x","x","x","x","x","x"]\n';
    for (let level = 1; level <= 9; level++)
      laughs += `l${level}: &l${level} [${Array(10)
        .fill(`*l${level - 1}`)
        .join(',')}]\n`;
    laughs += 'type: string\n';
    const api = await server((request, response) => {
      if (request.url === '/openapi.json') return sendJson(response, 200, referring('./laughs.yaml'));
      response.writeHead(200, { 'content-type': 'application/yaml' });
      response.end(laughs);
    });
    // parsed with every alias kept, the tool schema would grow ten-fold per level (46 MB of
    // JSON at six levels) until the process ran out of memory
    const error = await rejection(importOpenApi(`${api.origin}/openapi.json`));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`${api.origin}/laughs.yaml`);
    expect(error.message).toMatch(/alias/i);
    expect(error.message).not.toContain('never to local files');
  });

  it('gives up on a chain of slow referenced documents after fetchTimeoutMs together', async () => {
    // each answers well within the limit, one after the other: 0 -> 1 -> ... -> 7
    const api = await server((request, response) => {
      if (request.url === '/openapi.json') return sendJson(response, 200, referring('./chain0.json'));
      const step = Number(/chain(\d+)/.exec(request.url)?.[1] ?? 0);
      const next = step < 7 ? { $ref: `./chain${step + 1}.json` } : { type: 'string' };
      setTimeout(() => sendJson(response, 200, next), 250);
    });
    // one timeout for all: a timeout per document would let a long enough chain run for ever
    const error = await rejection(importOpenApi(`${api.origin}/openapi.json`, { fetchTimeoutMs: 1_000 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain(
      `the documents ${api.origin}/openapi.json refers to took longer than 1000 ms together`,
    );
    expect(error.message).toContain('raise fetchTimeoutMs');
  });

  it('never shows the query of a document URL (it may hold a key) in messages', async () => {
    const key = fakeSecret('key');
    const api = await server((request, response) => {
      if (request.url.startsWith('/broken.json')) return void response.end('{"openapi": "3.0.3", "paths": {');
      if (request.url.startsWith('/down.json')) return sendJson(response, 503, {});
      if (request.url.startsWith('/big.json')) return sendJson(response, 200, { x: 'y'.repeat(2_000) });
      return sendJson(response, 200, referring('./big.json'));
    });
    for (const [path, code] of [
      ['/broken.json', 'CONFIG_INVALID'],
      ['/down.json', 'PROVIDER_UNAVAILABLE'],
      ['/big.json', 'CONFIG_INVALID'],
      ['/referring.json', 'CONFIG_INVALID'],
    ] as const) {
      // messages show the URL without its query, which may hold a key
      const error = await rejection(
        importOpenApi(`${api.origin}${path}?key=${key}`, { maxDocumentBytes: 1_000 }),
      );
      expect(error.code).toBe(code);
      expect(error.message).toContain(`${api.origin}${path}?…`);
      expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(key);
    }
    expect(api.requests.filter((request) => request.url.includes(key)).length).toBeGreaterThanOrEqual(4);
  });
});
