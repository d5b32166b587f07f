import { afterEach, describe, expect, it } from 'vitest';
import { ToolError, type ToolResult, fail, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { codeOf, messageOf, testProvider } from './helpers.js';

// Nesting depth, hostile keys, huge counts.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

const nestedArrays = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('arguments nested deep', () => {
  it('a cached tool answers at every depth JSON carries; deeper is INVALID_ARGUMENTS saying to flatten, never INTERNAL', async () => {
    orchestrator = createOrchestrator({});
    let runs = 0;
    orchestrator.register(
      testProvider('p', {
        cached: {
          spec: { sideEffect: 'none', cacheTtlMs: 60_000 },
          run: () => {
            runs++;
            return ok('hi');
          },
        },
      }),
    );
    const seen = new Set<string>();
    for (let depth = 1000; depth <= 12_000; depth += 500) {
      const result = await orchestrator.call('p__cached', { a: nestedArrays(depth) });
      const code = codeOf(result);
      seen.add(code);
      expect([depth, code]).not.toEqual([depth, 'INTERNAL']);
      if (code !== 'OK') {
        expect(code).toBe('INVALID_ARGUMENTS');
        expect(messageOf(result)).toContain('nest too deep');
        expect(messageOf(result)).toContain('send flatter arguments');
      }
    }
    expect([...seen].sort()).toEqual(['INVALID_ARGUMENTS', 'OK']);
    expect(runs).toBeGreaterThan(0);
  }, 60_000);

  it('a recursive schema ($ref: "#") checks arguments 100,000 deep as too deep, not a crash', async () => {
    orchestrator = createOrchestrator({});
    orchestrator.register(
      testProvider('p', {
        tree: {
          spec: {
            sideEffect: 'none',
            inputSchema: { type: 'object', properties: { a: { $ref: '#' } } },
          },
          run: () => ok('ran'),
        },
      }),
    );
    // 3,000 deep is checked (valid); 100,000 is more than JSON.stringify and ajv can follow
    for (const depth of [100_000]) {
      const deep = JSON.parse(`${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`) as Record<string, unknown>;
      const result = await orchestrator.call('p__tree', deep);
      expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
      expect(messageOf(result)).toMatch(/nests? too deep/);
    }
    const fine = JSON.parse(`${'{"a":'.repeat(3000)}{}${'}'.repeat(3000)}`) as Record<string, unknown>;
    expect(codeOf(await orchestrator.call('p__tree', fine))).toBe('OK');
    expect(codeOf(await orchestrator.call('p__tree', { a: { a: 1 } }))).toBe('INVALID_ARGUMENTS');
  });
});

const hostileNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'toJSON'];

describe('names like __proto__, constructor, toString', () => {
  it('tools and a provider so named are listed, called, counted and queued as themselves', async () => {
    const queues = JSON.parse('{"__proto__":{"maxConcurrency":1}}') as Record<
      string,
      { maxConcurrency: number }
    >;
    orchestrator = createOrchestrator({ queues });
    const warnings: unknown[] = [];
    orchestrator.on('warning', (event) => warnings.push(event));
    const tools = Object.fromEntries(
      hostileNames.map((name) => [
        name,
        { spec: { sideEffect: 'none' as const, queue: '__proto__' }, run: () => ok(`ran ${name}`) },
      ]),
    );
    orchestrator.register({ ...testProvider('__proto__', tools) });
    orchestrator.register({ ...testProvider('constructor', tools), prefixNames: false });
    await orchestrator.warmup();
    const listed = (await orchestrator.listTools()).map((spec) => spec.name);
    expect(warnings).toEqual([]);
    for (const name of hostileNames) {
      expect(listed).toContain(`__proto____${name}`);
      expect(listed).toContain(name);
      const plain = await orchestrator.call(name, {});
      expect(plain.ok && plain.content[0]).toEqual({ type: 'text', text: `ran ${name}` });
      const prefixed = await orchestrator.call(`__proto____${name}`, {});
      expect(prefixed.ok && prefixed.content[0]).toEqual({ type: 'text', text: `ran ${name}` });
    }
    const totals = orchestrator.accounting().totals;
    for (const name of hostileNames) expect(Object.hasOwn(totals, name) && totals[name]?.calls).toBe(1);
    const stats = orchestrator.stats().queues;
    expect(Object.hasOwn(stats, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(stats)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(stats, '__proto__')?.value).toEqual({
      running: 0,
      waiting: 0,
      maxConcurrency: 1,
    });
    expect(codeOf(await orchestrator.call('valueOf', {}))).toBe('TOOL_NOT_FOUND');
  });

  it('a principal with an own __proto__ key is copied as data: its fields are not read through it', async () => {
    orchestrator = createOrchestrator({});
    const seen: unknown[] = [];
    orchestrator.register(
      testProvider('p', {
        who: {
          spec: { sideEffect: 'none' },
          run: (_args, ctx) => {
            seen.push(ctx.principal.agentId, Object.getPrototypeOf(ctx.principal) === Object.prototype);
            return ok('x');
          },
        },
      }),
    );
    const principal = JSON.parse('{"__proto__":{"agentId":"admin"},"userId":"u1"}') as Record<
      string,
      unknown
    >;
    expect(principal.agentId).toBeUndefined();
    expect(codeOf(await orchestrator.call('p__who', {}, { principal }))).toBe('OK');
    expect(seen).toEqual([undefined, true]);
  });
});

describe('tool_output jsonpath over JSON nested deep', () => {
  it('100,000 deep: a ".." query says the output nests too deep and what to do, a plain path answers cut', async () => {
    orchestrator = createOrchestrator({ output: { maxBytes: 4096 } });
    const depth = 100_000;
    const text = `{"name":"deep","tree":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    orchestrator.register(testProvider('p', { deep: { run: () => ok(text) } }));
    const stored = await orchestrator.call('p__deep', {});
    const handle = stored.meta?.truncated?.handle as string;
    expect(handle).toMatch(/^out_/);
    const query = async (path: string) =>
      (await orchestrator?.call('tool_output', { handle, mode: 'jsonpath', path })) as ToolResult;
    const descent = await query('$..a');
    expect(codeOf(descent)).toBe('INVALID_ARGUMENTS');
    expect(messageOf(descent)).toContain('nests deeper than 1000 levels, too deep for path "$..a"');
    expect(messageOf(descent)).not.toContain('filter');
    const whole = await query('$');
    const shown = whole.ok && whole.content[0]?.type === 'text' ? whole.content[0].text : '';
    expect(shown.startsWith('[\n  {\n    "name": "deep",\n    "tree": {\n      "a": {\n        "a": {')).toBe(
      true,
    );
    expect(shown).toMatch(/\n\[truncated[^\n]*: ask for a smaller slice\]$/);
    const inner = await query('$.tree.a.a');
    const innerText = inner.ok && inner.content[0]?.type === 'text' ? inner.content[0].text : '';
    expect(innerText.startsWith('[\n  {\n    "a": {\n      "a": {')).toBe(true);
    const name = await query('$.name');
    expect(name.ok && name.content[0]).toEqual({ type: 'text', text: '[\n  "deep"\n]' });
  }, 60_000);

  it('900 deep: "$..a" answers, cut at the size cap', async () => {
    orchestrator = createOrchestrator({ output: { maxBytes: 4096 } });
    const depth = 900;
    const text = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    orchestrator.register(testProvider('p', { deep: { run: () => ok(text) } }));
    const handle = (await orchestrator.call('p__deep', {})).meta?.truncated?.handle as string;
    const result = await orchestrator.call('tool_output', { handle, mode: 'jsonpath', path: '$..a' });
    const shown = result.ok && result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(shown.startsWith('[\n  {\n    "a": {\n      "a": {')).toBe(true);
    expect(shown).toMatch(/\n\[truncated[^\n]*: ask for a smaller slice\]$/);
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(4096);
  }, 60_000);
});

describe('failure details', () => {
  const deepDetails = (): Record<string, unknown> =>
    JSON.parse(`{"where":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`) as Record<string, unknown>;

  it('that JSON cannot write (100,000 deep) or over the size cap are dropped, saying so; small ones are kept', async () => {
    orchestrator = createOrchestrator({ output: { maxBytes: 4096 } });
    orchestrator.register(
      testProvider('p', {
        deep: { run: () => fail('EXECUTION_FAILED', 'it broke', { details: deepDetails() }) },
        thrown: {
          run: () => {
            throw new ToolError('EXECUTION_FAILED', 'it threw', { details: deepDetails() });
          },
        },
        large: { run: () => fail('EXECUTION_FAILED', 'too much', { details: { log: 'x'.repeat(100_000) } }) },
        small: { run: () => fail('EXECUTION_FAILED', 'small', { details: { status: 503 } }) },
      }),
    );
    for (const [tool, message] of [
      ['p__deep', 'it broke'],
      ['p__thrown', 'it threw'],
    ]) {
      const result = (await orchestrator.call(tool as string, {})) as ToolResult & { ok: false };
      expect(codeOf(result)).toBe('EXECUTION_FAILED');
      expect(result.error.details).toBeUndefined();
      expect(result.error.message).toBe(`${message} [details dropped: not JSON data (they nest too deeply)]`);
      expect(() => JSON.stringify(result)).not.toThrow();
    }
    const large = (await orchestrator.call('p__large', {})) as ToolResult & { ok: false };
    expect(large.error.details).toBeUndefined();
    expect(large.error.message).toMatch(/^too much \[details dropped: \d+ bytes, over the 4096-byte cap\]$/);
    const small = (await orchestrator.call('p__small', {})) as ToolResult & { ok: false };
    expect(small.error).toMatchObject({ message: 'small', details: { status: 503 } });
  });

  it('of INVALID_ARGUMENTS list at most 100 issues of 200,000, and count them', async () => {
    orchestrator = createOrchestrator({});
    orchestrator.register(
      testProvider('p', {
        list: {
          spec: {
            sideEffect: 'none',
            inputSchema: {
              type: 'object',
              properties: { items: { type: 'array', items: { type: 'string' } } },
            },
          },
          run: () => ok('ran'),
        },
      }),
    );
    const result = (await orchestrator.call('p__list', {
      items: Array.from({ length: 200_000 }, (_, index) => index),
    })) as ToolResult & { ok: false };
    expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
    expect(result.error.message).toContain('args.items[0]: must be string');
    expect(result.error.message).toContain('and 199995 more');
    const details = result.error.details as { issues: unknown[]; issueCount: number };
    expect(details.issues).toHaveLength(100);
    expect(details.issueCount).toBe(200_000);
  }, 60_000);
});
