import { describe, expect, it } from 'vitest';
import { AnsweredStream, requestIdsOf } from '../src/transport/answered-stream.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('AnsweredStream', () => {
  it('takes the ids of the requests of a POST, not of its notifications or answers', () => {
    const body = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'tools/call' },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 9, result: {} },
    ]);
    expect([...requestIdsOf(body)]).toEqual(['1', 'a']);
    expect(requestIdsOf('not json').size).toBe(0);
  });

  it('is done once every request is answered, across chunks, CRLF lines and a batch', () => {
    const stream = new AnsweredStream(new Set(['1', '2', '3']));
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1 } };
    expect(stream.read(bytes(`data: ${JSON.stringify(progress)}\n\n`))).toBe(false);
    // an event under another name is not a message the clients read
    expect(stream.read(bytes(`event: other\ndata: ${JSON.stringify({ id: 1, result: {} })}\n\n`))).toBe(
      false,
    );
    const answer = `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } })}\r\n\r\n`;
    expect(stream.read(bytes(answer.slice(0, 10)))).toBe(false);
    expect(stream.read(bytes(answer.slice(10)))).toBe(false);
    const batch = [
      { jsonrpc: '2.0', id: '2', error: { code: -1, message: 'x' } },
      { jsonrpc: '2.0', id: 3, result: {} },
    ];
    expect(stream.read(bytes(`data: ${JSON.stringify(batch)}\n`))).toBe(false);
    expect(stream.read(bytes('\n'))).toBe(true);
  });
});
