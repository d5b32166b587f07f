import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestToolConfig } from '../../src/index.js';
import { failure, getTool } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';

const { server, provider } = useCleanups();

const bodyTool = (url: string, contentType: string): RestToolConfig => ({
  description: 'Sends a body.',
  method: 'POST',
  url,
  parametersSchema: objectSchema({ body: {} }),
  body: { argument: 'body', contentType },
});

describe('body text that is not valid Unicode', () => {
  it('refuses a lone surrogate bound for a multipart, form or text body; nothing is sent', async () => {
    const api = await server();
    const rest = provider({
      multi: bodyTool(`${api.origin}/multi`, 'multipart/form-data'),
      form: bodyTool(`${api.origin}/form`, 'application/x-www-form-urlencoded'),
      text: bodyTool(`${api.origin}/text`, 'text/plain'),
      template: {
        description: 'Sends a note.',
        method: 'POST',
        url: `${api.origin}/note`,
        parametersSchema: objectSchema({ note: { type: 'string' } }),
        bodyTemplate: 'note: {{note}}',
      },
    });
    for (const [tool, args] of [
      ['multi', { body: { caption: 'half \uD83D of an emoji' } }],
      ['multi', { body: { ['name\uDC00']: 'v' } }],
      ['multi', { body: { tags: ['ok', 'bad\uD800'] } }],
      ['form', { body: { caption: 'half \uD83D of an emoji' } }],
      ['text', { body: 'half \uD83D of an emoji' }],
      ['template', { note: 'half \uD83D of an emoji' }],
    ] as const) {
      // refused, not replaced with U+FFFD silently; the message names the request body
      const result = failure(await rest.execute(tool, args, createToolContext()));
      expect(result.error.code, tool).toBe('INVALID_ARGUMENTS');
      expect(result.error.message, tool).toContain('the request body');
      expect(result.error.message, tool).toContain('lone UTF-16 surrogate');
    }
    expect(api.requests).toHaveLength(0);
    // a whole emoji, and a lone surrogate inside a JSON value (JSON escapes it), go through
    const fine = await rest.execute(
      'multi',
      { body: { caption: 'a \uD83D\uDE00', meta: { x: '\uD800' } } },
      createToolContext(),
    );
    expect(fine.ok).toBe(true);
    expect(api.requests[0]?.body).toContain('a \uD83D\uDE00');
    expect(api.requests[0]?.body).toContain('{"x":"\\ud800"}');
  });
});

describe('argument text a URL or a header cannot carry', () => {
  it('refuses lone surrogates in path and query arguments with INVALID_ARGUMENTS, and sends nothing', async () => {
    const api = await server();
    const rest = provider({
      a: getTool(`${api.origin}/items/{id}`, {
        parametersSchema: objectSchema({ id: { type: 'string' }, q: { type: 'string' } }, ['id']),
      }),
    });
    for (const args of [{ id: 'a\ud800b' }, { id: 'ok', q: '\udc00' }]) {
      const result = failure(await rest.execute('a', args, createToolContext()));
      expect(result.error.code).toBe('INVALID_ARGUMENTS');
      expect(result.error.message).toContain('lone UTF-16 surrogate');
    }
    expect(api.requests).toHaveLength(0);
    // a well-formed pair (an emoji) is fine
    const emoji = await rest.execute('a', { id: '😀' }, createToolContext());
    expect(emoji.ok).toBe(true);
    expect(api.requests[0]?.url).toBe('/items/%F0%9F%98%80');
  });

  it('refuses header arguments a header cannot carry with INVALID_ARGUMENTS, and sends Latin-1 text', async () => {
    const api = await server();
    const rest = provider({
      templated: getTool(`${api.origin}/t`, {
        headers: { 'x-name': 'user {{name}}' },
        parametersSchema: objectSchema({ name: { type: 'string' } }),
      }),
      bound: getTool(`${api.origin}/b`, {
        parameters: { tag: { in: 'header', name: 'x-tag' } },
        parametersSchema: objectSchema({ tag: { type: 'string' } }),
      }),
    });
    for (const [tool, args, names] of [
      ['templated', { name: '日本' }, 'header x-name (filled from name)'],
      ['templated', { name: 'bell\u0007' }, 'header x-name (filled from name)'],
      ['bound', { tag: 'x\ud800' }, 'header argument "tag"'],
    ] as const) {
      const result = failure(await rest.execute(tool, args, createToolContext()));
      // INVALID_ARGUMENTS, not CONFIG_INVALID ("the request is malformed"), which blames the operator
      expect(result.error.code).toBe('INVALID_ARGUMENTS');
      expect(result.error.message).toContain(names);
      expect(result.error.message).toContain('Latin-1');
    }
    expect(api.requests).toHaveLength(0);
    const latin1 = await rest.execute('bound', { tag: 'café' }, createToolContext());
    expect(latin1.ok).toBe(true);
    expect(Buffer.from(String(api.requests[0]?.headers['x-tag']), 'latin1').toString('latin1')).toBe('café');
  });
});
