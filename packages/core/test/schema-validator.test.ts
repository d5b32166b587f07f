import { describe, expect, it } from 'vitest';
import { ToolError } from '../src/errors.js';
import { compileSchema, formatIssues } from '../src/schema-validator.js';

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

  it('refuses a reference that points nowhere', () => {
    expect(() =>
      compileSchema({ type: 'object', properties: { a: { $ref: '#/definitions/missing' } } }),
    ).toThrow(/schema does not compile: can't resolve reference #\/definitions\/missing/);
  });
});

describe('compileSchema patterns', () => {
  it.each([
    ['^(a+)+$', `${'a'.repeat(40)}!`, 'aaa'],
    ['^(\\w+\\s?)*$', `${'word '.repeat(30)}!`, 'two words'],
    ['a.*b.*c.*d', 'abc'.repeat(20_000), 'a b c d'],
  ])('runs %s in linear time: a crafted string gets its verdict at once', (pattern, text, matching) => {
    const compiled = compileSchema({ type: 'object', properties: { q: { type: 'string', pattern } } });
    expect(compiled.validate({ q: text })).toEqual({
      valid: false,
      issues: [{ path: 'args.q', message: `must match pattern "${pattern}"` }],
    });
    expect(compiled.validate({ q: matching }).valid).toBe(true);
    expect(compiled.uncheckedPatterns).toEqual([]);
  });

  it('runs patternProperties in linear time', () => {
    const compiled = compileSchema({
      type: 'object',
      patternProperties: { '^(a+)+$': { type: 'number' } },
      additionalProperties: false,
    });
    expect(compiled.validate({ aaaa: 1 }).valid).toBe(true);
    expect(compiled.validate({ aaaa: 'x' }).valid).toBe(false);
    const outcome = compiled.validate({ [`${'a'.repeat(40)}!`]: 1 });
    expect(outcome.valid).toBe(false);
  });

  it('lists a pattern the linear engine cannot run: V8 checks it on strings short enough, the rest count as matching', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: {
        password: { type: 'string', pattern: '^(?=.*\\d)(?=.*[a-z]).{8,}$', maxLength: 64 },
        code: { type: 'string', pattern: '^(a+)+\\1$' },
        id: { type: 'string', pattern: '^\\d+$' },
      },
    });
    expect(compiled.uncheckedPatterns).toEqual(['^(?=.*\\d)(?=.*[a-z]).{8,}$', '^(a+)+\\1$']);
    expect(compiled.validate({ password: 'secret42', id: '12' }).valid).toBe(true);
    const outcome = compiled.validate({ password: 'short', id: 'abc' });
    expect(outcome.valid === false && outcome.issues.map((issue) => issue.path)).toEqual([
      'args.password',
      'args.id',
    ]);
    // too long for a bounded backtrack: counted as matching (the length is still checked)
    expect(compiled.validate({ password: 'x'.repeat(60) }).valid).toBe(true);
    expect(compiled.validate({ password: 'x'.repeat(65) }).valid).toBe(false);
    // a group repeated without bound, with a backreference: never run
    expect(compiled.validate({ code: `${'a'.repeat(40)}!` }).valid).toBe(true);
  });

  it('refuses a pattern that is not ECMA-262 (CONFIG_INVALID)', () => {
    for (const pattern of ['(?i)abc', '\\pL', '[z-a]', 'a{,5}']) {
      expect(() => compileSchema({ type: 'string', pattern }), pattern).toThrow(/schema does not compile/);
    }
  });
});

describe('compileSchema on schemas that overflow the stack', () => {
  it.each([
    ['refers to itself without end', { $ref: '#' }],
    [
      'refers to itself without end (2020-12)',
      { $schema: 'https://json-schema.org/draft/2020-12/schema', $ref: '#' },
    ],
    ['anyOf of itself first', { anyOf: [{ $ref: '#' }, { type: 'string' }] }],
  ])(
    'a schema that %s is CONFIG_INVALID at compile time, not a RangeError at every validation',
    (_name, schema) => {
      expect(() => compileSchema(schema)).toThrow(
        /schema does not compile: checking even \{\} against it fails .*refers to itself without end/,
      );
    },
  );

  it('a value nested deeper than the stack can follow through a recursive schema is invalid, not a throw', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: { children: { type: 'array', items: { $ref: '#' } } },
    });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 200_000; i++) deep = { children: [deep] };
    const outcome = compiled.validate(deep);
    expect(outcome.valid === false && outcome.issues[0]?.message).toMatch(/^nests too deep to be checked/);
    expect(compiled.validate({ children: [{ children: [] }] }).valid).toBe(true);
  });
});

describe('formatIssues of a failed outcome', () => {
  it('counts the issues a validation only counted (5,000 wrong items: 4,995 more, not 995)', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'string' } } },
    });
    const outcome = compiled.validate({ items: Array.from({ length: 5000 }, (_, index) => index) });
    if (outcome.valid) throw new Error('expected the items to fail');
    expect(formatIssues(outcome)).toMatch(/^args\.items\[0\]: must be string; .*; and 4995 more$/);
    expect(formatIssues(outcome, 1)).toBe('args.items[0]: must be string; and 4999 more');
    // the issues alone can count only the 1,000 described: why callers pass the outcome
    expect(formatIssues(outcome.issues, 1)).toBe('args.items[0]: must be string; and 999 more');
  });
});
