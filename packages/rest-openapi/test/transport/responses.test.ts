import { gzipSync } from 'node:zlib';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { getTool } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, provider } = useCleanups();
const noArgs = objectSchema({});

describe('responses', () => {
  it('maps status codes to ok or to failures with a stable code and a body excerpt', async () => {
    const api = await server((request, response) => {
      const status = Number(request.url.slice(1));
      if (status === 429) return sendJson(response, 429, { message: 'slow down' }, { 'retry-after': '7' });
      sendJson(response, status, { message: `status ${status}` });
    });
    const rest = provider({
      s: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/{code}`,
        parametersSchema: objectSchema({ code: { type: 'integer' } }),
      },
    });
    const expected: Array<[number, string]> = [
      [400, 'INVALID_ARGUMENTS'],
      [401, 'DENIED'],
      [403, 'DENIED'],
      [404, 'EXECUTION_FAILED'],
      [422, 'INVALID_ARGUMENTS'],
      [429, 'RATE_LIMITED'],
      [500, 'PROVIDER_UNAVAILABLE'],
      [503, 'PROVIDER_UNAVAILABLE'],
      [504, 'TIMEOUT'],
    ];
    for (const [status, code] of expected) {
      const result = await rest.execute('s', { code: status }, createToolContext());
      expect(result.ok, `status ${status}`).toBe(false);
      if (result.ok) continue;
      expect(result.error.code, `status ${status}`).toBe(code);
      expect(result.error.message).toContain(`HTTP ${status}`);
      expect(result.error.message).toContain(status === 429 ? 'slow down' : `status ${status}`);
      expect(result.error.details?.status).toBe(status);
      if (status === 429) expect(result.error.details?.retryAfterSeconds).toBe(7);
    }
    const fine = await rest.execute('s', { code: 201 }, createToolContext());
    expect(fine.ok && fine.structured).toEqual({ message: 'status 201' });
  });

  it('returns JSON as text plus structured data, text as text, binary by type and size only', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(2000, 7),
    ]);
    const api = await server((request, response) => {
      if (request.url === '/json') return sendJson(response, 200, { a: [1, 2] });
      if (request.url === '/text') {
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return response.end('héllo');
      }
      if (request.url === '/empty') {
        response.writeHead(204);
        return response.end();
      }
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(png);
    });
    const rest = provider({
      r: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/{kind}`,
        parametersSchema: objectSchema({ kind: { type: 'string' } }),
      },
    });
    const json = await rest.execute('r', { kind: 'json' }, createToolContext());
    expect(json).toMatchObject({
      ok: true,
      content: [{ type: 'text', text: '{"a":[1,2]}' }],
      structured: { a: [1, 2] },
    });
    const text = await rest.execute('r', { kind: 'text' }, createToolContext());
    expect(text).toMatchObject({ ok: true, content: [{ type: 'text', text: 'héllo' }] });
    const empty = await rest.execute('r', { kind: 'empty' }, createToolContext());
    expect(empty).toMatchObject({ ok: true, content: [{ type: 'text', text: 'HTTP 204 (empty body)' }] });
    const binary = await rest.execute('r', { kind: 'png' }, createToolContext());
    expect(binary).toMatchObject({ ok: true, structured: { contentType: 'image/png', bytes: png.length } });
    expect(binary.ok && binary.content[0]?.type === 'text' && binary.content[0].text).toBe(
      `binary response: image/png, ${png.length} bytes (not shown)`,
    );
  });

  it('stops reading past maxResponseBytes, with or without a content-length', async () => {
    const big = 'x'.repeat(200_000);
    const api = await server((request, response) => {
      if (request.url === '/declared') {
        response.writeHead(200, { 'content-type': 'text/plain', 'content-length': big.length });
        return response.end(big);
      }
      response.writeHead(200, { 'content-type': 'text/plain' });
      // chunked: no content-length, so only the cap while reading can stop it
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= 50 || response.destroyed) {
          clearInterval(timer);
          response.end();
          return;
        }
        sent++;
        response.write('y'.repeat(10_000));
      }, 1);
    });
    const rest = provider(
      {
        r: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/{kind}`,
          parametersSchema: objectSchema({ kind: { type: 'string' } }),
        },
      },
      { maxResponseBytes: 16_384 },
    );
    for (const kind of ['declared', 'chunked']) {
      const result = await rest.execute('r', { kind }, createToolContext());
      expect(result.ok, kind).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('OUTPUT_TOO_LARGE');
        expect(result.error.message).toContain('16384 bytes');
      }
    }
  });

  it('times out on missing headers, a stalled body and the per-call limit, and frees the call', async () => {
    const api = await server((request, response) => {
      if (request.url === '/no-headers') return; // never answers
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
      // never ends
    });
    const stalled = provider(
      {
        noHeaders: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/no-headers`,
          parametersSchema: noArgs,
        },
        stalledBody: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/stalled`,
          parametersSchema: noArgs,
        },
      },
      { headersTimeoutMs: 300, bodyTimeoutMs: 300 },
    );
    const noHeaders = await stalled.execute('noHeaders', {}, createToolContext());
    expect(noHeaders.ok === false && noHeaders.error.code).toBe('TIMEOUT');
    expect(noHeaders.ok === false && noHeaders.error.message).toContain('no response headers');
    const stalledBody = await stalled.execute('stalledBody', {}, createToolContext());
    expect(stalledBody.ok === false && stalledBody.error.code).toBe('TIMEOUT');
    expect(stalledBody.ok === false && stalledBody.error.message).toContain('stopped sending');

    const perCall = provider({
      slow: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/no-headers`,
        timeoutMs: '400ms',
        parametersSchema: noArgs,
      },
    });
    const slow = await perCall.execute('slow', {}, createToolContext());
    expect(slow.ok === false && slow.error.code).toBe('TIMEOUT');
    expect(slow.ok === false && slow.error.retryable).toBe(true);
  });

  it('reports a caller abort as CANCELLED and a refused connection as PROVIDER_UNAVAILABLE', async () => {
    const api = await server(() => undefined);
    const closed = await server();
    const deadOrigin = closed.origin;
    await closed.close();
    const rest = provider({
      hang: { description: 'd', method: 'GET', url: `${api.origin}/hang`, parametersSchema: noArgs },
      dead: { description: 'd', method: 'GET', url: `${deadOrigin}/x`, parametersSchema: noArgs },
    });
    const controller = new AbortController();
    const pending = rest.execute('hang', {}, createToolContext({ signal: controller.signal }));
    // abort once the server has the request
    for (let i = 0; i < 200 && api.requests.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const cancelled = await pending;
    expect(cancelled.ok === false && cancelled.error.code).toBe('CANCELLED');
    const dead = await rest.execute('dead', {}, createToolContext());
    expect(dead.ok === false && dead.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(dead.ok === false && dead.error.message).toContain('ECONNREFUSED');
  });

  it('reuses pooled connections across calls', async () => {
    const api = await server((_request, response) => sendJson(response, 200, { ok: true }));
    const rest = provider({
      r: { description: 'd', method: 'GET', url: `${api.origin}/r`, parametersSchema: noArgs },
    });
    for (let i = 0; i < 20; i++) {
      const result = await rest.execute('r', {}, createToolContext());
      expect(result.ok).toBe(true);
    }
    expect(api.requests).toHaveLength(20);
    // sequential calls on a keep-alive pool reuse their connections (a new one per call would give 20)
    expect(new Set(api.requests.map((request) => request.remotePort)).size).toBeLessThan(10);
  });

  it('decodes gzip bodies within the byte cap, and honours the charset of text', async () => {
    const json = gzipSync(
      JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `item ${i}` })) }),
    );
    const bomb = gzipSync(Buffer.alloc(5_000_000, 0x61));
    const api = await server((request, response) => {
      if (request.url === '/json') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return response.end(json);
      }
      if (request.url === '/latin1') {
        response.writeHead(200, { 'content-type': 'text/plain; charset=ISO-8859-1' });
        return response.end(Buffer.from([0x63, 0x61, 0x66, 0xe9])); // "café" in Latin-1
      }
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      response.end(bomb);
    });
    const rest = provider(
      {
        r: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/{kind}`,
          parametersSchema: objectSchema({ kind: { type: 'string' } }),
        },
      },
      { maxResponseBytes: 100_000 },
    );
    const decoded = await rest.execute('r', { kind: 'json' }, createToolContext());
    expect(decoded.ok && (decoded.structured as { items: unknown[] }).items).toHaveLength(50);
    const latin1 = await rest.execute('r', { kind: 'latin1' }, createToolContext());
    expect(latin1).toMatchObject({ ok: true, content: [{ type: 'text', text: 'café' }] });
    expect(bomb.length).toBeLessThan(100_000);
    const expanded = await rest.execute('r', { kind: 'bomb' }, createToolContext());
    expect(expanded.ok === false && expanded.error.code).toBe('OUTPUT_TOO_LARGE');
  });

  it('runs many concurrent calls that share one caller signal without piling listeners on it', async () => {
    const api = await server((_request, response) => {
      setTimeout(() => sendJson(response, 200, { ok: true }), 20);
    });
    const rest = provider({
      r: { description: 'd', method: 'GET', url: `${api.origin}/r`, parametersSchema: noArgs },
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    const ctx = createToolContext({ signal: new AbortController().signal });
    const results = await Promise.all(Array.from({ length: 40 }, () => rest.execute('r', {}, ctx)));
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(warnings).toEqual([]);
  });
});

describe('JSON with a byte order mark', () => {
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
});

describe('JSON with a charset that does not fit', () => {
  it('reads JSON as UTF-8 whatever charset the content type claims, and real UTF-16 JSON too', async () => {
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
      // RFC 8259: JSON between systems is UTF-8 and a charset means nothing; UTF-8 bytes decoded
      // as UTF-16 would be garbage (no structured value), as Latin-1 "SÃ£o"
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
      // not OUTPUT_TOO_LARGE, and no stream 'error' that nobody hears
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
    // no parsed value: JSON.stringify of it overflows the stack, so whatever serialises the
    // result next (a cache, a scrubber, the wire) would throw
    expect(result.ok && result.structured).toBeUndefined();
    expect(() => JSON.stringify(result)).not.toThrow();
    const fine = await rest.execute('fine', {}, createToolContext());
    expect(fine.ok && Array.isArray(fine.structured)).toBe(true);
  });
});
