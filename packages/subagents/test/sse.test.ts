import { describe, expect, it } from 'vitest';
import { StreamAssembler } from '../src/runner/completion.js';
import { SseParser } from '../src/runner/sse.js';

describe('server-sent events and streamed completions', () => {
  it('splits events cut anywhere, with LF, CRLF and CR line ends, comments and multi-line data', () => {
    const text =
      ': comment\r\ndata: {"a":1}\r\n\r\ndata: line one\ndata: line two\n\nevent: x\rdata: [DONE]\r\r';
    for (const size of [1, 2, 3, 7, text.length]) {
      const parser = new SseParser();
      const out: string[] = [];
      for (let at = 0; at < text.length; at += size) out.push(...parser.push(text.slice(at, at + size)));
      out.push(...parser.end());
      expect(out).toEqual(['{"a":1}', 'line one\nline two', '[DONE]']);
    }
  });

  it('assembles tool calls streamed in pieces and by index, and names malformed ones', () => {
    const assembler = new StreamAssembler();
    const delta = (value: unknown) => ({ choices: [{ index: 0, delta: value }] });
    assembler.push(delta({ content: 'Hel' }));
    assembler.push(
      delta({
        content: 'lo',
        tool_calls: [{ index: 1, id: 'b', function: { name: 'second', arguments: '{}' } }],
      }),
    );
    assembler.push(
      delta({ tool_calls: [{ index: 0, id: 'a', function: { name: 'first', arguments: '{"x":' } }] }),
    );
    assembler.push(delta({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }));
    assembler.push(delta({ tool_calls: [{ index: 2, id: 'c', function: { arguments: '{}' } }] }));
    assembler.push({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } });
    const message = assembler.finish();
    expect(message.content).toBe('Hello');
    expect(message.usage).toEqual({ promptTokens: 3, completionTokens: 2, totalTokens: 5 });
    expect(message.toolCalls).toEqual([
      { id: 'a', name: 'first', arguments: '{"x":1}' },
      { id: 'b', name: 'second', arguments: '{}' },
      { id: 'c', name: '', arguments: '', problem: 'a tool call without a function name' },
    ]);
  });
});
