import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestToolConfig } from '../src/index.js';
import { failure } from './helpers/bad-input.js';
import { objectSchema, useCleanups } from './helpers/fixtures.js';

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
      // multipart and text bodies used to replace it with U+FFFD silently; a form said "for the URL"
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
