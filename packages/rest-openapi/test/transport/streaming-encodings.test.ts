import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { type ProgressUpdate, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestStreamingConfig } from '../../src/index.js';
import { failure } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';

const { server, provider } = useCleanups();

const streaming: RestStreamingConfig = {
  mode: 'json-stream',
  discriminatorField: 'type',
  doneValue: 'done',
  tokenValue: 'token',
  tokenField: 'text',
  linePrefix: 'data: ',
};

const events = ['Hel', 'lo', '!']
  .map((text) => `data: ${JSON.stringify({ type: 'token', text })}\n\n`)
  .concat(`data: ${JSON.stringify({ type: 'done' })}\n\n`)
  .join('');

/** An event stream server sending `body` (already encoded) in small writes under `encoding`. */
async function streamingApi(encoding: string, body: Buffer, maxBytes?: number) {
  const api = await server(async (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': encoding });
    for (let offset = 0; offset < body.length; offset += 7) {
      response.write(body.subarray(offset, offset + 7));
      if (offset % 70 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    response.end();
  });
  const rest = provider({
    chat: {
      description: 'Streams an answer.',
      method: 'POST',
      url: `${api.origin}/chat`,
      streaming: { ...streaming, ...(maxBytes === undefined ? {} : { maxBytes }) },
      parametersSchema: objectSchema({}),
    },
  });
  const progress: ProgressUpdate[] = [];
  const call = () =>
    rest.execute('chat', {}, createToolContext({ progress: (update) => progress.push(update) }));
  return { call, progress };
}

describe('a compressed event stream', () => {
  it('is decoded (gzip, deflate, br, and layered) like a non-streamed answer', async () => {
    const cases: Array<[string, Buffer]> = [
      ['gzip', gzipSync(events)],
      ['deflate', deflateSync(events)],
      ['br', brotliCompressSync(events)],
      ['GZIP', gzipSync(events)],
      ['gzip, br', brotliCompressSync(gzipSync(events))],
      ['identity', Buffer.from(events)],
    ];
    for (const [encoding, body] of cases) {
      const { call, progress } = await streamingApi(encoding, body);
      const result = await call();
      // decoded first: the compressed bytes hold no line, so the done event would never be seen
      expect(result, encoding).toMatchObject({ ok: true, content: [{ type: 'text', text: 'Hello!' }] });
      expect(progress.map((update) => update.progress)).toEqual([1, 2, 3]);
    }
  });

  it('fails naming an encoding it cannot undo, and one whose bytes do not decode', async () => {
    const unknown = failure(await (await streamingApi('zstd', Buffer.from('(\xb5/\xfd garbage'))).call());
    expect(unknown.error.code).toBe('EXECUTION_FAILED');
    expect(unknown.error.message).toContain('content-encoding: zstd');
    const corrupt = failure(await (await streamingApi('gzip', Buffer.from('not gzip at all'))).call());
    expect(corrupt.error.code).toBe('EXECUTION_FAILED');
    expect(corrupt.error.message).toContain('content-encoding: gzip');
    expect(corrupt.error.message).toContain('does not decode');
  });

  it('holds the decoded stream to maxBytes, so a small compressed body cannot expand without bound', async () => {
    const padding = `: ${'x'.repeat(1000)}\n`.repeat(4000);
    const { call } = await streamingApi('gzip', gzipSync(padding + events), 64 * 1024);
    const result = failure(await call());
    expect(result.error.code).toBe('OUTPUT_TOO_LARGE');
    expect(result.error.message).toContain('passed 65536 bytes');
  });

  it('keeps the partial answer of a compressed stream whose connection drops', async () => {
    const { createGzip, constants } = await import('node:zlib');
    let drop: (() => void) | undefined;
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.on('data', (chunk: Buffer) => response.write(chunk));
      gzip.write('data: {"type":"token","text":"Hel"}\n\ndata: {"type":"token","text":"lo"}\n\n');
      gzip.flush(constants.Z_SYNC_FLUSH);
      drop = () => response.socket?.destroy();
    });
    const rest = provider({
      chat: {
        description: 'Streams an answer.',
        method: 'POST',
        url: `${api.origin}/chat`,
        streaming,
        parametersSchema: objectSchema({}),
      },
    });
    // The connection drops once the client has both tokens (not after a guessed delay).
    const ctx = createToolContext({ progress: (update) => update.progress === 2 && drop?.() });
    const dropped = failure(await rest.execute('chat', {}, ctx));
    // a lost connection, not a body that "does not decode"
    expect(dropped.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(dropped.content).toEqual([{ type: 'text', text: 'Hello' }]);
  });
});
