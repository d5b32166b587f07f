import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from './helpers/bad-input.js';
import { useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

const streaming = {
  mode: 'json-stream' as const,
  discriminatorField: 'type',
  doneValue: 'done',
  tokenValue: 'token',
  tokenField: 'text',
};

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
    // the compressed bytes used to come back as a "binary response", a success
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
      // a stream of bare CRs used to be one endless line, "ended without the done event"
      expect(result, name).toMatchObject({ ok: true, content: [{ type: 'text', text: 'Hello' }] });
      expect(result.ok && result.structured, name).toMatchObject({ tokens: 2 });
    }
  });
});

describe('a redirect with two location headers', () => {
  it('says where it points is unclear, follows neither, and sends the other places nothing', async () => {
    const elsewhere = await server();
    const api = await server((_request, response) => {
      response.writeHead(302, [
        ['location', '/first'],
        ['location', `${elsewhere.origin}/second`],
      ] as unknown as Record<string, string>);
      response.end();
    });
    const result = failure(
      await provider({ a: getTool(`${api.origin}/a`) }).execute('a', {}, createToolContext()),
    );
    // it used to be "HTTP 302 ... (check the arguments and the endpoint)", as if the call were wrong
    expect(result.error.code).toBe('EXECUTION_FAILED');
    expect(result.error.message).toContain('redirected (HTTP 302) with 2 location headers');
    expect(api.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });
});
