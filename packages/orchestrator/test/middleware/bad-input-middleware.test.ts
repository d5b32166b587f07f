import { afterEach, describe, expect, it } from 'vitest';
import { type Middleware, ToolError, type ToolResult, fail, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, counted, delay, echo, messageOf, testProvider, waitFor } from '../helpers.js';

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
  it('after a success: the mutating tool runs once, the second next() is INTERNAL', async () => {
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
  ])('%s: INTERNAL, the tool not run with arguments its schema refuses', async (_how, handle) => {
    const { local, runs } = paying({ name: 'rewrite', phase: 'transform', handle });
    const result = await local.call('p__pay', { cents: 5 });
    expect(codeOf(result)).toBe('INTERNAL');
    expect(messageOf(result)).toMatch(
      /a middleware after validation changed the arguments of p__pay so that they no longer match its input schema \(args/,
    );
    expect(runs()).toBe(0);
  });

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

describe('middleware and hooks that misbehave', () => {
  function withMiddleware(middleware: Middleware) {
    orchestrator = createOrchestrator();
    const tool = counted('mutating');
    orchestrator.register(testProvider('t', { tool }));
    orchestrator.use(middleware);
    return tool;
  }

  it.each<[string, Middleware['handle'], string]>([
    [
      'returns undefined',
      () => undefined as never,
      'returned an invalid result (expected a ToolResult object',
    ],
    ['returns a string', async () => 'done' as never, 'got string'],
    ['returns { ok: "maybe" }', async () => ({ ok: 'maybe' }) as never, 'no boolean "ok"'],
    [
      'returns a failure with an unknown code',
      async () => ({ ok: false, error: { code: 'OOPS', message: 'x' } }) as never,
      'unknown error code',
    ],
    [
      'throws',
      () => {
        throw new Error('middleware exploded');
      },
      'threw: middleware exploded',
    ],
  ])(
    'a middleware that %s gives INTERNAL naming it (call() never throws)',
    async (_label, handle, fragment) => {
      withMiddleware({ name: 'flaky', phase: 'gate', handle });
      const result = await orchestrator?.call('t__tool', {});
      expect(result && codeOf(result)).toBe('INTERNAL');
      expect(result && messageOf(result)).toContain('middleware "flaky" (gate)');
      expect(result && messageOf(result)).toContain(fragment);
    },
  );

  it('a ToolError a middleware throws keeps its code', async () => {
    withMiddleware({
      name: 'guard',
      phase: 'gate',
      handle: () => {
        throw new ToolError('DENIED', 'not on weekends');
      },
    });
    const result = await orchestrator?.call('t__tool', {});
    expect(result && codeOf(result)).toBe('DENIED');
    expect(result && messageOf(result)).toBe('not on weekends');
  });

  it('next() called after the call finished runs nothing', async () => {
    let late: Promise<ToolResult> | undefined;
    const tool = withMiddleware({
      name: 'late',
      phase: 'transform',
      handle(call, next) {
        const first = next(call);
        void first.then(() => {
          setTimeout(() => {
            late = next(call);
          }, 5);
        });
        return first;
      },
    });
    expect((await orchestrator?.call('t__tool', {}))?.ok).toBe(true);
    for (let i = 0; i < 200 && !late; i++) await delay(5);
    const lateResult = await late;
    expect(lateResult && codeOf(lateResult)).toBe('INTERNAL');
    expect(lateResult && messageOf(lateResult)).toContain('after the call had finished; nothing was run');
    expect(tool.runs).toBe(1);
  });

  it('a PreToolUse hook that rewrites the arguments to a non-object denies; the tool does not run', async () => {
    orchestrator = createOrchestrator({
      validation: false,
      hooks: { preToolUse: () => ({ args: 'rm -rf' as never }) },
    });
    const tool = counted();
    orchestrator.register(testProvider('t', { tool }));
    const result = await orchestrator.call('t__tool', {});
    expect(codeOf(result)).toBe('DENIED');
    expect(messageOf(result)).toContain('rewrote the arguments of t__tool to string');
    expect(tool.runs).toBe(0);
  });

  it('a PostToolUse hook that replaces the result with garbage gives INTERNAL; call() does not throw', async () => {
    orchestrator = createOrchestrator({
      hooks: { postToolUse: () => ({ result: { nope: true } as never }) },
    });
    orchestrator.register(testProvider('t', { echo }));
    const result = await orchestrator.call('t__echo', {});
    expect(codeOf(result)).toBe('INTERNAL');
    expect(messageOf(result)).toContain(
      'the PostToolUse hook replaced the result of t__echo with an invalid one',
    );
  });

  it("a caller's progress callback that throws does not fail the tool", async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(
      testProvider('t', {
        p: {
          run: (_args, ctx) => {
            ctx.progress({ progress: 1, total: 2 });
            return ok('done');
          },
        },
      }),
    );
    const result = await orchestrator.call(
      't__p',
      {},
      {
        progress: () => {
          throw new Error('ui crashed');
        },
      },
    );
    expect(result.ok).toBe(true);
  });
});

describe('a middleware that changes the tool it is handed', () => {
  it("cannot rewrite the registry's tool for every later caller: its call fails INTERNAL naming it", async () => {
    orchestrator = createOrchestrator();
    orchestrator.use({
      name: 'rewriter',
      phase: 'transform',
      handle: (call, next) => {
        (call.tool.spec as { description: string }).description = 'hijacked';
        return next(call);
      },
    });
    orchestrator.register(testProvider('t', { echo }));
    const result = await orchestrator.call('t__echo', {});
    expect(codeOf(result)).toBe('INTERNAL');
    expect(result.ok ? '' : result.error.message).toContain('middleware "rewriter" (transform) threw');
    // later listings (and later calls) see the registry's own spec, not the rewritten one
    expect(orchestrator.listTools().find((tool) => tool.name === 't__echo')?.description).toBe('echo tool');
  });
});

describe('a middleware whose onToolsChanged throws', () => {
  it('an onToolsChanged that throws is a warning; use(), calls and list refreshes go on', async () => {
    orchestrator = createOrchestrator();
    const warnings: string[] = [];
    orchestrator.on('warning', (warning) => warnings.push(warning.message));
    let toldOther = 0;
    orchestrator.use({
      name: 'fragile',
      phase: 'gate',
      onToolsChanged: () => {
        throw new Error('cannot learn tools');
      },
    });
    orchestrator.use({ name: 'other', phase: 'gate', onToolsChanged: () => void toldOther++ });
    const provider = testProvider('t', { echo });
    orchestrator.register(provider);
    expect(codeOf(await orchestrator.call('t__echo', {}))).toBe('OK');
    // a list change: the rebuild tells the middleware again, and its throw is only a warning
    provider.changeTools({ echo, more: echo });
    await waitFor(() => orchestrator?.hasTool('t__more') === true);
    expect(codeOf(await orchestrator.call('t__more', {}))).toBe('OK');
    expect(warnings.join('\n')).toContain(
      'middleware "fragile" (gate) onToolsChanged threw: cannot learn tools',
    );
    // use, warmup and the refresh: the other middleware was told every time
    expect(toldOther).toBe(3);
  });
});
