import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestToolConfig } from '../src/index.js';
import { useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

/** `{ a: { a: ... 1 } }`, `levels` objects deep. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
}

describe('arguments and streamed answers nesting 100,000 levels', () => {
  it('refuses arguments nesting deeper than 256 levels with INVALID_ARGUMENTS wherever they go, sending nothing', async () => {
    const api = await server();
    const tool = (path: string, extra: Partial<RestToolConfig> = {}): RestToolConfig => ({
      description: 'T.',
      method: 'POST',
      url: `${api.origin}${path}`,
      parametersSchema: { type: 'object' },
      ...extra,
    });
    const rest = provider({
      json: tool('/json'),
      deepObject: tool('/q', { parameters: { f: { in: 'query', style: 'deepObject', explode: true } } }),
      complex: tool('/q', { method: 'GET', hasComplexQueryParams: true }),
      header: tool('/h', { parameters: { f: { in: 'header' } } }),
      path: tool('/p/{f}'),
      template: tool('/t', { bodyTemplate: { x: '{{f}}' } }),
      form: tool('/f', { body: { argument: 'f', contentType: 'application/x-www-form-urlencoded' } }),
      multipart: tool('/m', { body: { argument: 'f', contentType: 'multipart/form-data' } }),
    });
    const deep = { f: nested(100_000) };
    for (const name of ['json', 'deepObject', 'complex', 'header', 'path', 'template', 'form', 'multipart']) {
      const result = await rest.execute(name, deep, createToolContext());
      // it used to be EXECUTION_FAILED "Maximum call stack size exceeded"
      expect(result.ok || result.error.code, name).toBe('INVALID_ARGUMENTS');
      expect(result.ok || result.error.message).toContain('nest deeper than 256 levels');
    }
    expect(api.requests).toHaveLength(0);
    // within the limit, the JSON body arrives as sent
    const fine = nested(200);
    expect((await rest.execute('json', { f: fine }, createToolContext())).ok).toBe(true);
    expect(JSON.parse(api.requests[0]?.body ?? '')).toEqual({ f: fine });
  });

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
    // it used to fail EXECUTION_FAILED "Maximum call stack size exceeded", losing the answer
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
