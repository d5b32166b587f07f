import { afterEach, describe, expect, it } from 'vitest';
import { type Middleware, type ToolResult, fail, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { codeOf, messageOf } from './bad-input-helpers.js';
import { testProvider } from './helpers.js';

// App middleware that calls next() more than once, or changes the arguments after validation.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

/** An orchestrator with a mutating `p__pay` tool that counts its runs and fails when told to. */
function paying(middleware: Middleware): { local: ToolsOrchestrator; runs: () => number } {
  let runs = 0;
  const local = createOrchestrator();
  orchestrator = local;
  local.register(
    testProvider('p', {
      pay: {
        spec: {
          sideEffect: 'mutating',
          inputSchema: {
            type: 'object',
            properties: { cents: { type: 'integer', minimum: 1 }, failFirst: { type: 'boolean' } },
            required: ['cents'],
            additionalProperties: false,
          },
        },
        run: (args) => {
          runs++;
          return args.failFirst && runs === 1
            ? fail('EXECUTION_FAILED', 'bank busy')
            : ok(`paid ${args.cents}`);
        },
      },
    }),
  );
  local.use(middleware);
  return { local, runs: () => runs };
}

describe('a middleware that calls next() twice', () => {
  it('after a success: the mutating tool runs once, the second next() is INTERNAL (before: it paid twice)', async () => {
    const seconds: ToolResult[] = [];
    const { local, runs } = paying({
      name: 'twice',
      phase: 'transform',
      handle: async (call, next) => {
        const first = await next(call);
        seconds.push(await next(call));
        return first;
      },
    });
    const result = await local.call('p__pay', { cents: 5 });
    expect(codeOf(result)).toBe('OK');
    expect(runs()).toBe(1);
    expect(seconds.map(codeOf)).toEqual(['INTERNAL']);
    expect(messageOf(seconds[0] as ToolResult)).toMatch(
      /a middleware called next\(\) for p__pay again after the tool had succeeded; the tool was not run again/,
    );
    expect(local.accounting().records.map((record) => record.attempts)).toEqual([1]);
  });

  it('twice at once: the tool runs once, the other next() is INTERNAL', async () => {
    const both: string[] = [];
    const { local, runs } = paying({
      name: 'fan-out',
      phase: 'output',
      handle: async (call, next) => {
        const [one, two] = await Promise.all([next(call), next(call)]);
        both.push(codeOf(one), codeOf(two));
        return one.ok ? one : two;
      },
    });
    expect(codeOf(await local.call('p__pay', { cents: 7 }))).toBe('OK');
    expect(runs()).toBe(1);
    expect(both).toEqual(['OK', 'INTERNAL']);
  });

  it("after a failure it runs the tool again: an app's own retry still works", async () => {
    const { local, runs } = paying({
      name: 'retry-once',
      phase: 'transform',
      handle: async (call, next) => {
        const first = await next(call);
        return first.ok ? first : next(call);
      },
    });
    const result = await local.call('p__pay', { cents: 9, failFirst: true });
    expect(codeOf(result)).toBe('OK');
    expect(runs()).toBe(2);
  });
});

describe('a middleware that changes the arguments after validation', () => {
  it.each<[string, Middleware['handle']]>([
    [
      'in place',
      (call, next) => {
        (call.args as Record<string, unknown>).cents = 'all of it';
        return next(call);
      },
    ],
    ['by handing next() new ones', (call, next) => next({ ...call, args: { cents: 5, extra: true } })],
  ])(
    '%s: INTERNAL, the tool not run (before: it ran with arguments its schema refuses)',
    async (_how, handle) => {
      const { local, runs } = paying({ name: 'rewrite', phase: 'transform', handle });
      const result = await local.call('p__pay', { cents: 5 });
      expect(codeOf(result)).toBe('INTERNAL');
      expect(messageOf(result)).toMatch(
        /a middleware after validation changed the arguments of p__pay so that they no longer match its input schema \(args/,
      );
      expect(runs()).toBe(0);
    },
  );

  it('a change that still matches the schema runs, and the model still gets INVALID_ARGUMENTS for its own mistakes', async () => {
    const { local, runs } = paying({
      name: 'double',
      phase: 'cache',
      handle: (call, next) => next({ ...call, args: { cents: Number(call.args.cents) * 2 } }),
    });
    const result = await local.call('p__pay', { cents: 5 });
    expect(result.ok && result.content[0]?.type === 'text' && result.content[0].text).toBe('paid 10');
    expect(codeOf(await local.call('p__pay', { cents: 0 }))).toBe('INVALID_ARGUMENTS');
    expect(runs()).toBe(1);
  });
});
