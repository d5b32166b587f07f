import { compileSchema } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { compileTools, toGeminiFunctionDeclaration } from '../../src/index.js';
import { FILE_TOOL, keywordsIn } from './fixtures.js';

describe('Gemini dialect', () => {
  const compiled = compileTools([FILE_TOOL], 'gemini', { maxRecursionDepth: 2 });
  const tool = compiled.tools[0];
  if (!tool) throw new Error('no tool');
  const parameters = tool.parameters as Record<string, unknown>;
  const properties = parameters.properties as Record<string, Record<string, unknown>>;

  it('inlines $ref and $defs and drops what Gemini refuses', () => {
    const keywords = keywordsIn(parameters);
    for (const refused of ['$ref', '$defs', 'additionalProperties', 'const', 'format'])
      expect(keywords.has(refused), refused).toBe(false);
    expect(properties.tree).toMatchObject({ type: 'object', properties: { name: { type: 'string' } } });
  });

  it('writes nullable instead of type lists, and type lists of several types as anyOf', () => {
    expect(properties.tag).toEqual({ type: 'string', nullable: true });
    expect(properties.size).toEqual({ anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(keywordsIn(parameters).has('type') && JSON.stringify(parameters).includes('"type":[')).toBe(false);
  });

  it('writes enums and const as strings and maps them back to the original values', () => {
    expect(properties.mode).toEqual({ type: 'string', enum: ['420', '493', 'keep'] });
    expect(properties.kind).toEqual({ type: 'string', enum: ['1'] });
    const args = compiled.restoreCall('fs__write', { path: 'p', mode: '493', kind: '1' }).args;
    expect(args).toEqual({ path: 'p', mode: 493, kind: 1 });
    expect(compileSchema(FILE_TOOL.inputSchema).validate(args).valid).toBe(true);
  });

  it('cuts recursion at the stated depth', () => {
    let node: Record<string, unknown> | undefined = properties.tree;
    let depth = 0;
    for (; depth < 10 && node?.type === 'object'; depth++)
      node = ((node.properties as Record<string, Record<string, unknown>>).children?.items ?? undefined) as
        | Record<string, unknown>
        | undefined;
    expect(depth).toBe(2);
    expect(node).toEqual({ type: 'string', description: 'JSON text' });
  });

  it('declares a tool without arguments without parameters, and names it as Gemini allows', () => {
    const noArgs = compileTools(
      [{ name: '2fa__status', description: 'Status.', inputSchema: { type: 'object' } }],
      'gemini',
    );
    const declaration = toGeminiFunctionDeclaration(noArgs.tools[0] as (typeof noArgs.tools)[number]);
    expect(declaration.parameters).toBeUndefined();
    expect(declaration.name).toMatch(/^t_2fa__status_[0-9a-f]{8}$/);
    expect(noArgs.restoreCall(declaration.name, {}).name).toBe('2fa__status');
  });
});
