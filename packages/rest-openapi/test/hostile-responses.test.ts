import { gzipSync } from 'node:zlib';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from './helpers/bad-input.js';
import { fakeSecret, objectSchema, useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

describe('redirects to other origins', () => {
  it('does not carry configured headers filled from ${VAR} to an allowed host on another origin', async () => {
    const key = fakeSecret('key');
    const other = await server();
    const api = await server((_request, response) => {
      // the same loopback server under another name: another origin the tool allows
      response.writeHead(302, { location: `${other.origin.replace('127.0.0.1', 'localhost')}/moved` });
      response.end();
    });
    const rest = provider(
      {
        get: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/x`,
          headers: { 'X-Api-Key': '${KEY}', 'X-Tenant': 'acme', 'X-Both': 'k=${KEY}' },
          allowedRedirectHosts: ['localhost'],
          parametersSchema: objectSchema({}),
        },
      },
      { env: { KEY: key } },
    );
    expect((await rest.execute('get', {}, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.headers['x-api-key']).toBe(key);
    expect(other.requests).toHaveLength(1);
    // it used to reach the other origin: a key in `headers` is as much a credential as one in `auth`
    expect(other.requests[0]?.headers['x-api-key']).toBeUndefined();
    expect(other.requests[0]?.headers['x-both']).toBeUndefined();
    expect(other.requests[0]?.headers['x-tenant']).toBe('acme');
  });
});

describe('content encodings that are stacked or unknown', () => {
  /** A GET tool against a server answering `body` with this content-encoding. */
  async function answered(encoding: string, body: Buffer, maxResponseBytes?: number) {
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      response.end(body);
    });
    const rest = provider(
      { get: getTool(`${api.origin}/x`) },
      maxResponseBytes === undefined ? {} : { maxResponseBytes },
    );
    return rest.execute('get', {}, createToolContext());
  }

  it('undoes every encoding of a list, last applied first, within the byte cap', async () => {
    for (const [encoding, body] of [
      ['gzip, gzip', gzipSync(gzipSync('{"a":1}'))],
      ['gzip,identity', gzipSync('{"a":1}')],
      [' GZIP ', gzipSync('{"a":1}')],
    ] as const) {
      const result = await answered(encoding, body);
      // the compressed bytes used to come back as the answer's text
      expect(result.ok, encoding).toBe(true);
      expect(result.ok && result.structured, encoding).toEqual({ a: 1 });
    }
    // a bomb in two layers: each layer is held to the cap
    const bomb = gzipSync(gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)));
    const big = failure(await answered('gzip, gzip', bomb, 1024 * 1024));
    expect(big.error.code).toBe('OUTPUT_TOO_LARGE');
  });

  it('says an encoding it cannot undo instead of returning the encoded bytes as the answer', async () => {
    const result = failure(await answered('zstd', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3])));
    expect(result.error.code).toBe('EXECUTION_FAILED');
    expect(result.error.message).toContain('content-encoding: zstd');
    expect(result.error.message).toContain('gzip, deflate or br');
  });
});

describe('JSON with a charset that does not fit', () => {
  it('reads JSON as UTF-8 whatever charset the content type claims, and real UTF-16 JSON still', async () => {
    const json = '{"city":"São Paulo"}';
    for (const [contentType, body] of [
      ['application/json; charset=utf-16', Buffer.from(json)],
      ['application/json; charset=iso-8859-1', Buffer.from(json)],
      ['application/json; charset=utf-16le', Buffer.from(json, 'utf16le')],
    ] as const) {
      const api = await server((_request, response) => {
        response.writeHead(200, { 'content-type': contentType });
        response.end(body);
      });
      const result = await provider({ get: getTool(`${api.origin}/x`) }).execute(
        'get',
        {},
        createToolContext(),
      );
      // RFC 8259: JSON between systems is UTF-8 and a charset means nothing; UTF-8 bytes used to be
      // decoded as UTF-16 (garbage, no structured value) or Latin-1 ("SÃ£o")
      expect(result.ok && result.structured, contentType).toEqual({ city: 'São Paulo' });
    }
  });
});

describe('a HEAD answer that declares a large body', () => {
  it('is a success without a body, not OUTPUT_TOO_LARGE (nor an uncaught stream error)', async () => {
    const api = await server((_request, response) => {
      // a HEAD answer carries the length the GET body would have, and no body
      response.writeHead(200, {
        'content-type': 'application/zip',
        'content-length': String(50 * 1024 * 1024),
      });
      response.end();
    });
    const rest = provider({ head: getTool(`${api.origin}/file.zip`, { method: 'HEAD' }) });
    for (let call = 0; call < 2; call++) {
      const result = await rest.execute('head', {}, createToolContext());
      // it used to be OUTPUT_TOO_LARGE, and the body it destroyed threw an 'error' nobody heard
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(result.ok && result.structured).toEqual({ status: 200 });
    }
    expect(api.requests.map((request) => request.method)).toEqual(['HEAD', 'HEAD']);
  });
});

describe('JSON nested absurdly deep', () => {
  it('keeps the text of an answer nesting deeper than 256 levels but gives no structured value', async () => {
    const deep = 200_000;
    const api = await server((request, response) => {
      const depth = request.url === '/deep' ? deep : 100;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`${'['.repeat(depth)}"x"${']'.repeat(depth)}`);
    });
    const rest = provider({ deep: getTool(`${api.origin}/deep`), fine: getTool(`${api.origin}/fine`) });
    const result = await rest.execute('deep', {}, createToolContext());
    expect(result.ok).toBe(true);
    // the parsed value used to be returned: JSON.stringify of it overflows the stack, so whatever
    // serialises the result next (a cache, a scrubber, the wire) threw
    expect(result.ok && result.structured).toBeUndefined();
    expect(() => JSON.stringify(result)).not.toThrow();
    const fine = await rest.execute('fine', {}, createToolContext());
    expect(fine.ok && Array.isArray(fine.structured)).toBe(true);
  });
});
