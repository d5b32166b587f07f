import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../src/errors.js';
import { compileSchema, formatIssues } from '../src/schema-validator.js';
import { DEFAULT_MAX_SCHEMA_NODES } from '../src/schema-size.js';

function patterned(count: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) {
    properties[`p${index}`] = { type: 'string', pattern: `^x${index}[a-z]+$` };
  }
  return { type: 'object', properties };
}

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

function refusal(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ToolError');
}

describe('compileSchema on huge schemas', () => {
  it('compiles 8,000 properties with a pattern each (limit raised) and checks every pattern', () => {
    // ajv binds the 8,000 patterns in quadratic time and overflows the stack; core binds them in one pass
    const compiled = compileSchema(patterned(8000), { maxSchemaNodes: 20_000 });
    expect(compiled.validate({ p0: 'x0ab', p7999: 'x7999cd' })).toEqual({ valid: true });
    const outcome = compiled.validate({ p1: 'x1ab', p7999: 'x1ab' });
    expect(outcome.valid).toBe(false);
    if (!outcome.valid)
      expect(formatIssues(outcome.issues)).toBe('args.p7999: must match pattern "^x7999[a-z]+$"');
  }, 120_000);

  it('refuses a schema over maxSchemaNodes with CONFIG_INVALID naming the limit and what to do', () => {
    const error = refusal(() => compileSchema(patterned(DEFAULT_MAX_SCHEMA_NODES)));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(
      `more than ${DEFAULT_MAX_SCHEMA_NODES} objects and arrays (maxSchemaNodes)`,
    );
    expect(error.message).toContain('raise maxSchemaNodes');
    const small = refusal(() => compileSchema(patterned(10), { maxSchemaNodes: 5 }));
    expect(small.message).toContain('more than 5 objects');
    expect(compileSchema(patterned(10), { maxSchemaNodes: 12 }).validate({ p3: 'x3z' }).valid).toBe(true);
  });

  it('refuses a bad maxSchemaNodes', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      const error = refusal(() => compileSchema({ type: 'string' }, { maxSchemaNodes: bad }));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('maxSchemaNodes must be a positive integer');
    }
  });

  it('counts a schema nested 100,000 deep without overflowing: CONFIG_INVALID, not a RangeError', () => {
    const deep = JSON.parse(`${'{"items":'.repeat(100_000)}{}${'}'.repeat(100_000)}`) as Record<
      string,
      unknown
    >;
    expect(refusal(() => compileSchema(deep)).message).toContain('more than 5000 objects');
    // within the limit but deeper than ajv can follow: still CONFIG_INVALID, from the compile
    const error = refusal(() => compileSchema(nested(2400)));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('schema does not compile');
  });
});

describe('validate on a value with many wrong parts', () => {
  it('describes the first 1,000 of 300,000 issues and counts the rest', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'string' } } },
    });
    const outcome = compiled.validate({ items: Array.from({ length: 300_000 }, (_, index) => index) });
    expect(outcome.valid).toBe(false);
    if (outcome.valid) return;
    expect(outcome.issues).toHaveLength(1000);
    expect(outcome.issues[999]).toEqual({ path: 'args.items[999]', message: 'must be string' });
    expect(outcome.issueCount).toBe(300_000);
    expect(formatIssues(outcome.issues, 2, outcome.issueCount)).toBe(
      'args.items[0]: must be string; args.items[1]: must be string; and 299998 more',
    );
    const few = compiled.validate({ items: [1, 'a', 2] });
    expect(few).toEqual({
      valid: false,
      issues: [
        { path: 'args.items[0]', message: 'must be string' },
        { path: 'args.items[2]', message: 'must be string' },
      ],
    });
    if (!few.valid) expect(formatIssues(few.issues, 1)).toBe('args.items[0]: must be string; and 1 more');
  }, 60_000);
});

describe('validate with property names of Object.prototype', () => {
  it('reads only own properties: {} lacks constructor, toString, __proto__', () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__']) {
      const optional = compileSchema({ type: 'object', properties: { [name]: { type: 'string' } } });
      expect(optional.validate({})).toEqual({ valid: true });
      expect(optional.validate(JSON.parse(`{"${name}":"v"}`))).toEqual({ valid: true });
      const required = compileSchema({
        type: 'object',
        properties: { [name]: { type: 'string' } },
        required: [name],
      });
      expect(required.validate({})).toEqual({
        valid: false,
        issues: [{ path: `args.${name}`, message: 'is required' }],
      });
    }
    const wrong = compileSchema({ type: 'object', properties: { constructor: { type: 'string' } } });
    expect(wrong.validate(JSON.parse('{"constructor":5}'))).toEqual({
      valid: false,
      issues: [{ path: 'args.constructor', message: 'must be string' }],
    });
  });
});

describe('compiled schemas are not kept for ever', () => {
  it('frees a schema nothing uses any more after more compilations', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const freed = (() => {
      const schema = {
        type: 'object',
        properties: { only: { type: 'string', description: 'x'.repeat(2000) } },
      };
      expect(compileSchema(schema).validate({ only: 'a' })).toEqual({ valid: true });
      return new WeakRef(schema);
    })();
    for (let index = 0; index < 1200; index++) {
      compileSchema({ type: 'object', properties: { [`f${index}`]: { type: 'integer' } } });
    }
    let gone = false;
    for (let attempt = 0; attempt < 10 && !gone; attempt++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      gone = freed.deref() === undefined;
    }
    expect(gone).toBe(true);
  }, 60_000);
});
