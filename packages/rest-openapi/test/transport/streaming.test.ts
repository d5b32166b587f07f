import { type ProgressUpdate, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestStreamingConfig, RestToolConfig } from '../../src/index.js';
import { failure, getTool } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';

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

describe('a stream that breaks off', () => {
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
});

describe('an event stream whose lines end in a bare CR', () => {
  it('reads CR, LF and CRLF line ends alike, also when a CRLF is split between writes', async () => {
    const api = await server(async (request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
      if (request.url === '/cr') {
        // a bare CR ends a line in an event stream as LF and CRLF do
        response.write('data: {"type":"token","text":"He"}\r\rdata: {"type":"token","text":"llo"}\r');
        await pause();
        return response.end('\rdata: {"type":"done"}\r\r');
      }
      response.write('data: {"type":"token","text":"He"}\r');
      await pause();
      response.write('\ndata: {"type":"token","text":"llo"}\r\n\r');
      await pause();
      response.end('\ndata: {"type":"done"}\r\n');
    });
    const rest = provider({
      cr: getTool(`${api.origin}/cr`, { streaming: { ...streaming, linePrefix: 'data: ' } }),
      split: getTool(`${api.origin}/split`, { streaming: { ...streaming, linePrefix: 'data: ' } }),
    });
    for (const name of ['cr', 'split']) {
      const result = await rest.execute(name, {}, createToolContext());
      // a stream of bare CRs is lines, not one endless line "ended without the done event"
      expect(result, name).toMatchObject({ ok: true, content: [{ type: 'text', text: 'Hello' }] });
      expect(result.ok && result.structured, name).toMatchObject({ tokens: 2 });
    }
  });
});

describe('a streamed answer nesting 100,000 levels', () => {
  it('gives a streamed answer nesting 100,000 levels as the done event text, and reads no inherited answer field', async () => {
    const depth = 100_000;
    const deepAnswer = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const events = [
      'data: {"type":"token","__proto__":{"text":"polluted"},"text":"a"}',
      `data: {"type":"done","answer":${deepAnswer}}`,
    ];
    let stream = events;
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`${stream.join('\n\n')}\n\n`);
    });
    const streaming = (answerField: string) => ({
      mode: 'json-stream' as const,
      linePrefix: 'data: ',
      discriminatorField: 'type',
      tokenValue: 'token',
      tokenField: 'text',
      doneValue: 'done',
      answerField,
    });
    const tool = (answerField: string): RestToolConfig => ({
      description: 'T.',
      method: 'GET',
      url: `${api.origin}/s`,
      parametersSchema: { type: 'object' },
      streaming: streaming(answerField),
    });
    const rest = provider({ deep: tool('answer'), inherited: tool('toString') });
    const result = await rest.execute('deep', {}, createToolContext());
    // not EXECUTION_FAILED "Maximum call stack size exceeded", losing the answer
    expect(result.ok, JSON.stringify(result).slice(0, 300)).toBe(true);
    const text = result.ok ? (result.content[0] as { text: string }).text : '';
    expect(text).toBe(`{"type":"done","answer":${deepAnswer}}`);
    stream = [
      'data: {"type":"token","text":"a"}',
      'data: {"type":"token","text":"b"}',
      'data: {"type":"done"}',
    ];
    // no toString field in the done event: the answer is the tokens, not a function's source
    const inherited = await rest.execute('inherited', {}, createToolContext());
    expect(inherited.ok && inherited.content).toEqual([{ type: 'text', text: 'ab' }]);
  });
});
