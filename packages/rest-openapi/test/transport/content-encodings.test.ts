import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestStreamingConfig } from '../../src/index.js';
import { failure, getTool } from '../helpers/bad-input.js';
import { useCleanups } from '../helpers/fixtures.js';

const { server, provider } = useCleanups();

const streaming: RestStreamingConfig = {
  mode: 'json-stream',
  discriminatorField: 'type',
  doneValue: 'done',
  tokenValue: 'token',
  tokenField: 'text',
};

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
      // decoded, not the compressed bytes as the answer's text
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

describe('a content-encoding sent as two header lines', () => {
  it('is one list, undone last applied first, for an answer and a stream', async () => {
    const json = '{"a":1}';
    const events = '{"type":"token","text":"hi"}\n{"type":"done"}\n';
    const api = await server((request, response) => {
      const body = request.url === '/stream' ? events : json;
      // HTTP joins repeated field lines into one list: "gzip, br"
      response.writeHead(200, [
        ['content-type', request.url === '/stream' ? 'application/x-ndjson' : 'application/json'],
        ['content-encoding', 'gzip'],
        ['content-encoding', 'br'],
      ] as unknown as Record<string, string>);
      response.end(brotliCompressSync(gzipSync(body)));
    });
    const rest = provider({
      answer: getTool(`${api.origin}/answer`),
      stream: getTool(`${api.origin}/stream`, { streaming }),
    });
    const answer = await rest.execute('answer', {}, createToolContext());
    // decoded, not the compressed bytes as a "binary response"
    expect(answer.ok && answer.structured).toEqual({ a: 1 });
    const stream = await rest.execute('stream', {}, createToolContext());
    expect(stream).toMatchObject({ ok: true, content: [{ type: 'text', text: 'hi' }] });
  });

  it('names an encoding it cannot undo on either line', async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, [
        ['content-type', 'application/json'],
        ['content-encoding', 'gzip'],
        ['content-encoding', 'zstd'],
      ] as unknown as Record<string, string>);
      response.end(gzipSync('{"a":1}'));
    });
    const result = failure(
      await provider({ a: getTool(`${api.origin}/a`) }).execute('a', {}, createToolContext()),
    );
    expect(result.error.code).toBe('EXECUTION_FAILED');
    expect(result.error.message).toContain('content-encoding: gzip, zstd');
  });
});

describe('a body that does not decode', () => {
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
