import { type ProgressUpdate, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestStreamingConfig } from '../src/index.js';
import { objectSchema, useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

const streaming: RestStreamingConfig = {
  mode: 'json-stream',
  discriminatorField: 'type',
  doneValue: 'done',
  tokenValue: 'token',
  tokenField: 'text',
};

function tool(url: string, extra: Partial<RestStreamingConfig> = {}) {
  return {
    description: 'Streams an answer.',
    method: 'POST' as const,
    url,
    streaming: { ...streaming, ...extra },
    parametersSchema: objectSchema({ prompt: { type: 'string' } }),
  };
}

describe('JSON streaming', () => {
  it('concatenates token events from NDJSON, reports progress per token, and ends at the done event', async () => {
    const api = await server(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const word of ['Hel', 'lo, ', 'wor', 'ld']) {
        response.write(`${JSON.stringify({ type: 'token', text: word })}\n`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // one event split across writes, a keep-alive line and a non-JSON line
      response.write('{"type":"tok');
      response.write('en","text":"!"}\n\n: keep-alive\n');
      response.end(`${JSON.stringify({ type: 'done' })}\n`);
    });
    const progress: ProgressUpdate[] = [];
    const rest = provider({ chat: tool(`${api.origin}/chat`) });
    const result = await rest.execute(
      'chat',
      { prompt: 'hi' },
      createToolContext({ progress: (update) => progress.push(update) }),
    );
    expect(result).toMatchObject({
      ok: true,
      content: [{ type: 'text', text: 'Hello, world!' }],
      structured: { tokens: 5 },
    });
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3, 4, 5]);
  });

  it('strips an SSE line prefix and takes the answer field of the done event when configured', async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: message\r\n');
      response.write(`data: ${JSON.stringify({ kind: 'delta', delta: 'draft' })}\r\n\r\n`);
      response.write(`data: ${JSON.stringify({ kind: 'final', answer: 'final answer' })}\r\n\r\n`);
      response.end('data: [DONE]\n\n');
    });
    const rest = provider({
      chat: tool(`${api.origin}/chat`, {
        linePrefix: 'data: ',
        discriminatorField: 'kind',
        doneValue: 'final',
        tokenValue: 'delta',
        tokenField: 'delta',
        answerField: 'answer',
      }),
    });
    const result = await rest.execute('chat', {}, createToolContext());
    expect(result).toMatchObject({ ok: true, content: [{ type: 'text', text: 'final answer' }] });
  });

  it('gives up on a never-ending stream at its timeout and keeps the partial answer', async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write(`${JSON.stringify({ type: 'token', text: 'partial' })}\n`);
      const timer = setInterval(() => {
        if (response.destroyed) return clearInterval(timer);
        response.write('\n'); // keeps the body timeout from firing
      }, 50);
      response.on('close', () => clearInterval(timer));
    });
    const rest = provider({ chat: tool(`${api.origin}/chat`, { timeoutMs: '600ms' }) });
    const result = await rest.execute('chat', {}, createToolContext());
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('TIMEOUT');
      expect(result.content).toEqual([{ type: 'text', text: 'partial' }]);
    }
  });

  it('stops at maxBytes, and reports a stream that ends without its done event', async () => {
    const api = await server((request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      if (request.url === '/short') {
        response.end(`${JSON.stringify({ type: 'token', text: 'cut' })}\n`);
        return;
      }
      for (let i = 0; i < 200; i++)
        response.write(`${JSON.stringify({ type: 'token', text: 'x'.repeat(100) })}\n`);
      response.end();
    });
    const rest = provider({
      big: tool(`${api.origin}/big`, { maxBytes: 2000 }),
      short: tool(`${api.origin}/short`),
    });
    const big = await rest.execute('big', {}, createToolContext());
    expect(big.ok === false && big.error.code).toBe('OUTPUT_TOO_LARGE');
    const short = await rest.execute('short', {}, createToolContext());
    expect(short.ok === false && short.error.code).toBe('EXECUTION_FAILED');
    expect(short.ok === false && short.content).toEqual([{ type: 'text', text: 'cut' }]);
  });

  it('treats an error status on a streaming tool as a normal failure', async () => {
    const api = await server((_request, response) => {
      response.writeHead(503, { 'content-type': 'text/plain' });
      response.end('overloaded');
    });
    const rest = provider({ chat: tool(`${api.origin}/chat`) });
    const result = await rest.execute('chat', {}, createToolContext());
    expect(result.ok === false && result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(result.ok === false && result.error.message).toContain('overloaded');
  });
});
