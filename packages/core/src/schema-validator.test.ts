import { describe, expect, it } from 'vitest';
import { ToolError } from './errors.js';
import { compileSchema, formatIssues } from './schema-validator.js';

const schema = {
  type: 'object',
  properties: {
    q: { type: 'string', minLength: 1 },
    limit: { type: 'integer', maximum: 100 },
    mode: { enum: ['files', 'content'] },
    items: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  },
  required: ['q'],
  additionalProperties: false,
};

describe('compileSchema', () => {
  it('compiles once per schema object', () => {
    expect(compileSchema(schema)).toBe(compileSchema(schema));
  });

  it('accepts valid values', () => {
    expect(compileSchema(schema).validate({ q: 'x', limit: 5, items: [{ name: 'a' }] })).toEqual({
      valid: true,
    });
  });

  it('names the path and what was expected', () => {
    const outcome = compileSchema(schema).validate({ limit: 500, mode: 'x', items: [{}], extra: 1 });
    expect(outcome.valid).toBe(false);
    if (outcome.valid) return;
    const text = formatIssues(outcome.issues, 10);
    expect(text).toContain('args.q: is required');
    expect(text).toContain('args.limit: must be <= 100');
    expect(text).toContain('args.mode: must be one of "files", "content"');
    expect(text).toContain('args.items[0].name: is required');
    expect(text).toContain('has unknown property "extra"');
  });

  it('picks the 2020-12 dialect from $schema', () => {
    const compiled = compileSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }],
    });
    expect(compiled.validate(['a']).valid).toBe(true);
    expect(compiled.validate([1]).valid).toBe(false);
  });

  it('checks formats', () => {
    const compiled = compileSchema({ type: 'string', format: 'email' });
    expect(compiled.validate('a@b.co').valid).toBe(true);
    expect(compiled.validate('nope').valid).toBe(false);
  });

  it('reports a broken schema as CONFIG_INVALID', () => {
    try {
      compileSchema({ type: 'object', properties: { a: { type: 'not-a-type' } } });
      expect.unreachable();
    } catch (error) {
      expect(ToolError.isInstance(error)).toBe(true);
      expect((error as ToolError).code).toBe('CONFIG_INVALID');
    }
  });

  it.each([
    ['draft-07', undefined],
    ['2020-12', 'https://json-schema.org/draft/2020-12/schema'],
  ])('compiles a %s schema that refers to itself by "#" (a tree), without changing it', (_name, dialect) => {
    const schema = {
      ...(dialect ? { $schema: dialect } : {}),
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      additionalProperties: false,
    };
    const before = JSON.stringify(schema);
    const compiled = compileSchema(schema);
    expect(compiled.validate({ name: 'root', children: [{ name: 'leaf', children: [] }] }).valid).toBe(true);
    const outcome = compiled.validate({ name: 'root', children: [{ name: 7 }] });
    expect(outcome).toEqual({
      valid: false,
      issues: [{ path: 'args.children[0].name', message: 'must be string' }],
    });
    expect(JSON.stringify(schema)).toBe(before);
    expect(compiled.schema).toBe(schema);
  });

  it('still refuses a reference that points nowhere', () => {
    expect(() =>
      compileSchema({ type: 'object', properties: { a: { $ref: '#/definitions/missing' } } }),
    ).toThrow(/schema does not compile: can't resolve reference #\/definitions\/missing/);
  });
});
