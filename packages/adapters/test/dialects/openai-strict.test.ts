import { compileSchema } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { compileTools } from '../../src/index.js';
import { FILE_TOOL, keywordsIn } from './fixtures.js';

function objectsIn(schema: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(schema)) for (const item of schema) objectsIn(item, out);
  else if (typeof schema === 'object' && schema !== null) {
    const node = schema as Record<string, unknown>;
    if (node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))) out.push(node);
    for (const value of Object.values(node)) objectsIn(value, out);
  }
  return out;
}

describe('OpenAI strict dialect', () => {
  const compiled = compileTools([FILE_TOOL], 'openai-strict');
  const tool = compiled.tools[0];
  if (!tool) throw new Error('no tool');
  const parameters = tool.parameters as Record<string, unknown>;

  it('makes every object closed with every property required', () => {
    const objects = objectsIn(parameters);
    expect(objects.length).toBeGreaterThan(2);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
      expect(object.required).toEqual(Object.keys(object.properties as object));
    }
  });

  it('turns optional properties nullable, and a null that comes back into absent', () => {
    const properties = parameters.properties as Record<string, Record<string, unknown>>;
    expect(properties.path?.type).toBe('string');
    expect(properties.mode?.enum).toEqual([420, 493, 'keep', null]);
    expect(
      compiled.restoreCall('fs__write', {
        path: 'a',
        mode: null,
        tree: null,
        env: null,
        tag: null,
        size: null,
        kind: null,
      }),
    ).toEqual({ name: 'fs__write', args: { path: 'a', tag: null } });
  });

  it('leaves no $ref, $defs or unsupported keyword, and moves constraints into the description', () => {
    const keywords = keywordsIn(parameters);
    for (const refused of ['$ref', '$defs', 'minLength', 'format', 'oneOf', 'allOf'])
      expect(keywords.has(refused), refused).toBe(false);
    const path = (parameters.properties as Record<string, { description?: string }>).path;
    expect(path?.description).toBe('format: uri-reference; minLength: 1');
    expect(tool.compat.issues.map((i) => [i.path, i.keyword, i.severity])).toContainEqual([
      '/properties/path',
      'minLength',
      'relaxed',
    ]);
  });

  it('cuts recursion at the stated depth and takes the rest as JSON text, parsed back', () => {
    const deep = compileTools([FILE_TOOL], 'openai-strict', { maxRecursionDepth: 1 });
    const cut = deep.tools[0]?.compat.issues.find((i) => i.keyword === '$ref' && i.severity === 'degraded');
    expect(cut?.message).toContain('cut at depth 1');
    const args = deep.restoreCall('fs__write', {
      path: 'p',
      mode: null,
      env: '{"HOME":"/h"}',
      tag: null,
      size: 3,
      kind: 1,
      tree: { name: 'root', children: ['{"name":"leaf","children":[{"name":"x"}]}'] },
    }).args;
    expect(args).toEqual({
      path: 'p',
      env: { HOME: '/h' },
      tag: null,
      size: 3,
      kind: 1,
      tree: { name: 'root', children: [{ name: 'leaf', children: [{ name: 'x' }] }] },
    });
    expect(compileSchema(FILE_TOOL.inputSchema).validate(args).valid).toBe(true);
  });

  it('answers INVALID_ARGUMENTS for JSON text that does not parse', () => {
    expect(() => compiled.restoreCall('fs__write', { path: 'p', env: '{nope' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENTS',
        message: expect.stringContaining('args.env must be JSON text'),
      }),
    );
  });

  it('reports the tool by its worst change: a free-form map is degraded', () => {
    expect(tool.compat.status).toBe('degraded');
    expect(compiled.report.counts.degraded).toBe(1);
  });

  it('wraps a root that is not an object and unwraps the arguments', () => {
    const scalar = compileTools(
      [{ name: 'echo', description: 'Echo.', inputSchema: { type: 'string' } }],
      'openai-strict',
    );
    expect(scalar.tools[0]?.parameters).toMatchObject({
      type: 'object',
      required: ['input'],
      additionalProperties: false,
    });
    expect(scalar.restoreCall('echo', '{"input":"hi"}').args).toBe('hi');
  });

  it('keeps an optional nullable property nullable and reports that null is no longer absent', () => {
    const entry = compiled.tools[0]?.compat.issues.find((i) => i.path === '/properties/tag');
    expect(entry?.severity).toBe('relaxed');
  });

  it('keeps a property named __proto__ a property, and maps its null back to absent', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"number"}},"required":["a"]}',
    );
    const odd = compileTools([{ name: 'odd', description: '', inputSchema: schema }], 'openai-strict');
    const parameters = odd.tools[0]?.parameters as { properties: object; required: string[] };
    expect(Object.keys(parameters.properties)).toEqual(['__proto__', 'a']);
    expect(parameters.required).toEqual(['__proto__', 'a']);
    const args = odd.restoreCall('odd', '{"__proto__":null,"a":1}').args;
    expect(Object.keys(args)).toEqual(['a']);
    expect(Object.getPrototypeOf(odd.restoreCall('odd', '{"__proto__":"x","a":1}').args)).toBe(
      Object.prototype,
    );
  });
});
