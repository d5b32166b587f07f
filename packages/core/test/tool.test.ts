import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolContext } from '../src/context.js';
import { ToolError } from '../src/errors.js';
import { createLocalProvider } from '../src/local-provider.js';
import { describeInvalidResult, ok } from '../src/result.js';
import { compileSchema } from '../src/schema-validator.js';
import { defineTool } from '../src/tool.js';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number().default(1) }),
  output: z.object({ sum: z.number() }),
  sideEffect: 'none',
  execute: ({ a, b }) => ok(String(a + b), { sum: a + b }),
});

describe('defineTool', () => {
  it('exposes a JSON Schema without $schema', () => {
    expect(add.spec.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number', default: 1 } },
      required: ['a'],
    });
    expect(add.spec.inputSchema.$schema).toBeUndefined();
    expect(add.spec.outputSchema).toMatchObject({ properties: { sum: { type: 'number' } } });
  });

  it('parses arguments with defaults and returns structured output', async () => {
    const result = await add.execute({ a: 2 }, createToolContext());
    expect(result).toEqual({ ok: true, content: [{ type: 'text', text: '3' }], structured: { sum: 3 } });
  });

  it('returns INVALID_ARGUMENTS with the path', async () => {
    const result = await add.execute({ a: 'two' }, createToolContext());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_ARGUMENTS');
    expect(result.error.message).toContain('args.a');
  });

  it('turns a throw into a failure and keeps a ToolError code', async () => {
    const boom = defineTool({
      name: 'boom',
      description: 'Fails.',
      input: z.object({ kind: z.enum(['plain', 'tool']) }),
      sideEffect: 'none',
      execute: ({ kind }) => {
        if (kind === 'tool') throw new ToolError('DENIED', 'not today');
        throw new Error('plain failure');
      },
    });
    const plain = await boom.execute({ kind: 'plain' }, createToolContext());
    const tool = await boom.execute({ kind: 'tool' }, createToolContext());
    expect(plain.ok === false && plain.error).toMatchObject({
      code: 'EXECUTION_FAILED',
      message: 'plain failure',
    });
    expect(tool.ok === false && tool.error).toMatchObject({ code: 'DENIED', message: 'not today' });
  });

  it('rejects structured output that breaks the output schema', async () => {
    const liar = defineTool({
      name: 'liar',
      description: 'Lies.',
      input: z.object({}),
      output: z.object({ n: z.number() }),
      sideEffect: 'none',
      execute: () => ok('x', { n: 'not a number' }),
    });
    const result = await liar.execute({}, createToolContext());
    expect(result.ok === false && result.error.code).toBe('INVALID_RESULT');
  });
});

describe('createLocalProvider', () => {
  it('lists and executes by local name', async () => {
    const provider = createLocalProvider({ namespace: 'math', tools: [add] });
    expect((await provider.listTools()).map((t) => t.name)).toEqual(['add']);
    const result = await provider.execute('add', { a: 1, b: 2 }, createToolContext());
    expect(result.ok).toBe(true);
    const missing = await provider.execute('sub', {}, createToolContext());
    expect(missing.ok === false && missing.error.code).toBe('TOOL_NOT_FOUND');
  });

  it('refuses two tools with one name', () => {
    expect(() => createLocalProvider({ namespace: 'm', tools: [add, add] })).toThrow(
      /two tools are named "add"/,
    );
  });
});

describe('describeInvalidResult', () => {
  it.each([
    [null, 'null'],
    ['text', 'string'],
    [{}, 'no boolean'],
    [{ ok: true }, 'content array'],
    [{ ok: true, content: [{ type: 'video' }] }, 'content[0]'],
    [{ ok: false, error: { code: 'NOPE', message: 'x' } }, 'unknown error code'],
  ])('%j', (value, fragment) => {
    expect(describeInvalidResult(value)).toContain(fragment);
  });

  it('accepts well-formed results', () => {
    expect(describeInvalidResult(ok('x'))).toBeUndefined();
  });
});

describe('ToolError', () => {
  it('is recognised across copies through a Symbol.for marker and serialises', () => {
    const error = new ToolError('TIMEOUT', 'took too long', { details: { ms: 5 } });
    const foreign = Object.assign(Object.create(null), { [Symbol.for('toolplane.error')]: true });
    expect(ToolError.isInstance(error)).toBe(true);
    expect(ToolError.isInstance(foreign)).toBe(true);
    expect(ToolError.isInstance(new Error('x'))).toBe(false);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'ToolError',
      code: 'TIMEOUT',
      message: 'took too long',
      retryable: true,
      details: { ms: 5 },
    });
  });
});

describe('defineTool with argument names of Object.prototype', () => {
  it('reads only own arguments: {} has no constructor or toString', async () => {
    const tool = defineTool({
      name: 'named',
      description: 'Takes fields named like Object.prototype members.',
      input: z.object({ constructor: z.string().optional(), toString: z.string().default('t') }),
      sideEffect: 'none',
      execute: (args) => ok(JSON.stringify(args)),
    });
    const ctx = createToolContext();
    expect(await tool.execute({}, ctx)).toEqual(ok('{"toString":"t"}'));
    expect(await tool.execute(JSON.parse('{"constructor":"c","__proto__":{"x":1}}'), ctx)).toEqual(
      ok('{"constructor":"c","toString":"t"}'),
    );
    const refused = await tool.execute({ constructor: 5 } as unknown as Record<string, unknown>, ctx);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toContain('args.constructor');
  });
});

describe('defineTool input schemas under compileSchema', () => {
  const withMeta = (meta: Record<string, unknown>) =>
    defineTool({
      name: 'meta',
      description: 'A tool whose zod schema carries extra JSON Schema keywords.',
      input: z.object({ a: z.string() }).meta(meta),
      sideEffect: 'none',
      execute: ({ a }) => a,
    });

  it('validates arguments against the schema defineTool wrote as against the same schema given by hand', () => {
    const schema = add.spec.inputSchema;
    const written = compileSchema(schema);
    const byHand = compileSchema(structuredClone(schema));
    for (const args of [{ a: 1 }, { a: 1, b: 2 }, {}, { a: 'x' }, { a: 1, b: null }]) {
      expect(written.validate(args)).toEqual(byHand.validate(args));
    }
    expect(written.validate({ a: 1 }).valid).toBe(true);
    expect(written.validate({ a: 'x' }).valid).toBe(false);
  });

  it('compiles a defineTool schema without the meta-schema check, and still refuses a broken keyword', () => {
    const schema = withMeta({ maxProperties: 'one' }).spec.inputSchema;
    // zod decides these arguments: ajv's own keyword checks still refuse the schema
    expect(() => compileSchema(schema)).toThrow(/CONFIG_INVALID|maxProperties value must be/);
    expect(() => compileSchema(schema)).not.toThrow(/schema is invalid/);
    // the same schema given by hand is checked against the meta-schema first
    expect(() => compileSchema(structuredClone(schema))).toThrow(/schema is invalid: data\/maxProperties/);
  });
});
