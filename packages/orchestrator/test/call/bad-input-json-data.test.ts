import { describe, expect, it } from 'vitest';
import { type Middleware, type RegisteredTool, type ToolResult, ok } from '@toolplane/core';
import { createOrchestrator } from '../../src/index.js';
import { codeOf, counted, endedAfterEach, messageOf, testProvider, thrownBy } from '../helpers.js';

// Structured output JSON would change, content blocks that read differently twice, a caller's
// principal that cannot be read, and arguments or results JSON cannot carry.

const { track } = endedAfterEach();

function answering(answer: () => ToolResult) {
  const local = track(createOrchestrator());
  local.register(testProvider('p', { x: { run: answer } }));
  return local;
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('structured output is JSON data', () => {
  it.each<[string, unknown, RegExp]>([
    ['a function', { total: 3, format: () => 'x' }, /structured\.format is a function/],
    ['a symbol', { tag: Symbol('t') }, /structured\.tag is a symbol/],
    ['a Map', { index: new Map([['a', 1]]) }, /structured\.index is a Map/],
    ['a Set', { seen: new Set([1]) }, /structured\.seen is a Set/],
    ['a BigInt', { size: 10n }, /structured\.size is a bigint/],
    ['a Date', { rows: [{ at: new Date(0) }] }, /structured\.rows\[0\]\.at is a Date.*toISOString/],
    ['a class instance', { where: new Point(1, 2) }, /structured\.where is a Point/],
    ['NaN', { ratio: Number.NaN }, /structured\.ratio is NaN/],
    ['undefined in an array', { list: [1, undefined] }, /structured\.list\[1\] is undefined/],
    ['a Map at the top', new Map(), /^.*\(structured is a Map/],
  ])('%s is INVALID_RESULT naming the path', async (_, structured, message) => {
    const local = answering(() => ({ ok: true, content: [{ type: 'text', text: 'ok' }], structured }));
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('INVALID_RESULT');
    expect(messageOf(result)).toMatch(message);
  });

  it('plain JSON data is kept as given, nested objects, arrays, null and a null-prototype object included', async () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { k: 'v' });
    const structured = { n: 1.5, s: 'x', b: false, none: null, list: [1, 'two', { three: [3] }], bare };
    const local = answering(() => ok('ok', structured));
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('OK');
    expect(result.ok && result.structured).toBe(structured);
  });

  it.each<[string, unknown]>([
    ['a string (a REST body that is a JSON string)', 'just text'],
    ['an array (a REST list)', [{ id: 1 }, { id: 2 }]],
    ['a number', 7],
    ['null', null],
  ])('any JSON value at the top is kept: %s', async (_, structured) => {
    const local = answering(() => ({ ok: true, content: [{ type: 'text', text: 'ok' }], structured }));
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('OK');
    expect(result.ok && result.structured).toEqual(structured);
  });
});

describe('a content block read twice', () => {
  it('a block whose getter answers differently on a second read is INVALID_RESULT', async () => {
    let reads = 0;
    const block = {
      type: 'text',
      get text(): unknown {
        reads++;
        return reads === 1 ? 'first' : 42;
      },
    };
    const local = answering(() => ({ ok: true, content: [block as never] }));
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('INVALID_RESULT');
    expect(messageOf(result)).toMatch(/content\[0\]\.text is a getter: return plain data/);
  });

  it('a block that is a Proxy is INVALID_RESULT', async () => {
    const block = new Proxy({ type: 'text', text: 'hi' }, {});
    const local = answering(() => ({ ok: true, content: [block as never] }));
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('INVALID_RESULT');
    expect(messageOf(result)).toMatch(/content\[0\] is a Proxy/);
  });
});

describe("a caller's principal that cannot be used", () => {
  const reading: Middleware = {
    name: 'by-agent',
    phase: 'gate',
    filterTools: (tools: readonly RegisteredTool[], view) =>
      tools.filter(() => String((view.principal as Record<string, unknown>).roles) !== 'none'),
  };

  it('a principal Proxy that throws when a filterTools reads it is INVALID_ARGUMENTS, not the middleware CONFIG_INVALID', async () => {
    const local = track(createOrchestrator());
    local.register(testProvider('p', { x: { run: () => ok('x') } }));
    local.use(reading);
    await local.warmup();
    const principal = new Proxy(
      { agentId: 'coder', roles: ['dev'] },
      {
        get(target, key) {
          if (key === 'roles') throw new Error('roles are not loaded');
          return Reflect.get(target, key);
        },
      },
    );
    const error = thrownBy(() => local.listTools({ principal }));
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toMatch(/principal of listTools\(view\).*roles are not loaded/);
    expect(local.listTools({ principal: { agentId: 'coder' } }).map((spec) => spec.name)).toContain('p__x');
  });

  it.each<[string, unknown]>([
    ['a number agentId', { agentId: 42 }],
    ['an object userId', { userId: { id: 'u' } }],
    ['an empty tenantId', { tenantId: '' }],
  ])('%s is INVALID_ARGUMENTS for a call and a view', async (_, principal) => {
    const local = track(createOrchestrator());
    local.register(testProvider('p', { x: { run: () => ok('x') } }));
    const result = await local.call('p__x', {}, { principal: principal as never });
    expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
    expect(messageOf(result)).toMatch(/principal\.\w+ of a call to p__x must be a non-empty string/);
    expect(thrownBy(() => local.listTools({ principal: principal as never })).code).toBe('INVALID_ARGUMENTS');
  });

  it('a principal with extra fields of any JSON kind is accepted', async () => {
    const local = track(createOrchestrator());
    local.register(testProvider('p', { x: { run: (_, ctx) => ok(JSON.stringify(ctx.principal)) } }));
    const principal = { agentId: 'coder', userId: 'u1', roles: ['admin'], level: 3 };
    const result = await local.call('p__x', {}, { principal: principal as never });
    expect(result.ok && result.content[0]).toEqual({ type: 'text', text: JSON.stringify(principal) });
  });
});

describe('arguments are JSON data', () => {
  it.each<[string, () => Record<string, unknown>, string]>([
    ['a BigInt', () => ({ n: 10n }), 'BigInt'],
    [
      'a cycle',
      () => {
        const args: Record<string, unknown> = {};
        args.self = args;
        return args;
      },
      'circular',
    ],
    [
      'a throwing getter',
      () =>
        Object.defineProperty({}, 'x', {
          enumerable: true,
          get() {
            throw new Error('getter exploded');
          },
        }),
      'getter exploded',
    ],
    [
      'a throwing proxy',
      () =>
        new Proxy(
          {},
          {
            ownKeys() {
              throw new Error('proxy exploded');
            },
          },
        ),
      'proxy exploded',
    ],
  ])('arguments with %s are INVALID_ARGUMENTS and run nothing', async (_label, make, fragment) => {
    const orchestrator = track(createOrchestrator());
    const tool = counted();
    orchestrator.register(testProvider('t', { tool }), { cacheTtlMs: 60_000 });
    const result = await orchestrator.call('t__tool', make());
    expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
    expect(messageOf(result)).toContain('must be JSON data');
    expect(messageOf(result)).toContain(fragment);
    expect(tool.runs).toBe(0);
  });
});

describe('providers that return what JSON cannot carry', () => {
  it.each<[string, () => unknown, string]>([
    ['a BigInt', () => ({ total: 1n }), 'structured.total is a bigint'],
    [
      'a cycle',
      () => {
        const node: Record<string, unknown> = {};
        node.next = node;
        return node;
      },
      'structured.next refers back to itself',
    ],
  ])('structured output with %s is INVALID_RESULT naming the tool', async (_label, make, fragment) => {
    const orchestrator = track(createOrchestrator());
    orchestrator.register(
      testProvider('t', { s: { run: () => ({ ok: true, content: [], structured: make() }) as ToolResult } }),
    );
    const result = await orchestrator.call('t__s', {});
    expect(codeOf(result)).toBe('INVALID_RESULT');
    expect(messageOf(result)).toContain('provider "t" returned an invalid result for t__s');
    expect(messageOf(result)).toContain(fragment);
  });
});
