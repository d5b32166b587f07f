import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestToolConfig } from '../../src/index.js';
import { useCleanups } from '../helpers/fixtures.js';

const { server, provider } = useCleanups();

/** `{ a: { a: ... 1 } }`, `levels` objects deep. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
}

describe('arguments nesting 100,000 levels', () => {
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
      // not EXECUTION_FAILED "Maximum call stack size exceeded"
      expect(result.ok || result.error.code, name).toBe('INVALID_ARGUMENTS');
      expect(result.ok || result.error.message).toContain('nest deeper than 256 levels');
    }
    expect(api.requests).toHaveLength(0);
    // within the limit, the JSON body arrives as sent
    const fine = nested(200);
    expect((await rest.execute('json', { f: fine }, createToolContext())).ok).toBe(true);
    expect(JSON.parse(api.requests[0]?.body ?? '')).toEqual({ f: fine });
  });
});
