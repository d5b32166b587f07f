import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Middleware, type ToolResult, ToolError, fail, ok } from '@toolplane/core';
import { type OrchestratorOptions, type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { codeOf, thrownBy } from './bad-input-helpers.js';
import { delay, echo, testProvider } from './helpers.js';

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

function messageOf(result: ToolResult): string {
  return result.ok ? '' : result.error.message;
}

/** A tool that counts its runs. */
function counted(sideEffect: 'none' | 'mutating' = 'none') {
  const tool = {
    runs: 0,
    spec: { sideEffect },
    run: () => {
      tool.runs++;
      return ok(`run ${tool.runs}`);
    },
  };
  return tool;
}

describe('options out of range are CONFIG_INVALID at creation, not a hang or a loop', () => {
  it.each<[OrchestratorOptions, string]>([
    [{ timeoutMs: 0 }, 'timeoutMs must be a positive number; got 0'],
    [{ timeoutMs: Number.NaN }, 'timeoutMs must be a positive number; got NaN'],
    [{ maxConcurrency: 0 }, 'maxConcurrency must be a number of at least 1; got 0'],
    [{ maxConcurrency: Number.NaN }, 'maxConcurrency must be a number of at least 1; got NaN'],
    [{ queues: { web: { maxConcurrency: -1 } } }, 'queues.web.maxConcurrency must be a number of at least 1'],
    [{ warmupConcurrency: Number.NaN }, 'warmupConcurrency must be a number of at least 1'],
    [{ startTimeoutMs: Number.NaN }, 'startTimeoutMs must be a positive number'],
    [{ retry: { maxAttempts: Number.NaN } }, 'retry.maxAttempts must be a number of at least 1'],
    [{ retry: { baseDelayMs: -5 } }, 'retry.baseDelayMs must be a number of 0 or more'],
    [{ output: { maxBytes: 0 } }, 'output.maxBytes must be a positive number'],
    [{ timeoutMs: '100' as unknown as number }, 'timeoutMs must be a positive number; got "100"'],
  ])('%j', (options, message) => {
    const error = thrownBy(() => createOrchestrator(options));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(message);
  });

  it('warmup({ concurrency: NaN }) is refused instead of starting no provider at all', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    await expect(orchestrator.warmup({ concurrency: Number.NaN })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
    expect((await orchestrator.call('t__echo', {})).ok).toBe(true);
  });

  it.each([Number.NaN, -5, 0, '100'])(
    'a call timeoutMs of %j fails at once (no deadline-less call)',
    async (timeoutMs) => {
      orchestrator = createOrchestrator();
      const tool = counted();
      orchestrator.register(testProvider('t', { tool }));
      const result = await orchestrator.call('t__tool', {}, { timeoutMs: timeoutMs as number });
      expect(codeOf(result)).toBe('CONFIG_INVALID');
      expect(messageOf(result)).toContain(
        'timeoutMs for t__tool from the call options must be a positive number',
      );
      expect(tool.runs).toBe(0);
      expect(orchestrator.stats().inflight).toBe(0);
    },
  );

  it('a register() timeoutMs of NaN is refused; a tool spec timeoutMs of NaN is ignored with a warning', async () => {
    orchestrator = createOrchestrator();
    expect(
      thrownBy(() => orchestrator?.register(testProvider('p', { echo }), { timeoutMs: Number.NaN })).code,
    ).toBe('CONFIG_INVALID');
    const warnings: string[] = [];
    orchestrator.on('warning', (warning) => warnings.push(warning.message));
    orchestrator.register(
      testProvider('t', { slow: { spec: { timeoutMs: Number.NaN }, run: () => new Promise(() => {}) } }),
      { timeoutMs: 100 },
    );
    // the provider's 100 ms applies: before, NaN won and the call never ended
    expect(codeOf(await orchestrator.call('t__slow', {}))).toBe('TIMEOUT');
    expect(warnings.join('\n')).toContain('"slow" has timeoutMs NaN, not a positive number: ignored');
  });

  it('a call signal that is not an AbortSignal is CONFIG_INVALID, not a TypeError', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const result = await orchestrator.call('t__echo', {}, { signal: {} as AbortSignal });
    expect(codeOf(result)).toBe('CONFIG_INVALID');
    expect(messageOf(result)).toContain('must be an AbortSignal');
  });
});

describe('registration and middleware of the wrong shape', () => {
  it('namespaces: missing, colliding, reserved, and providers without execute are CONFIG_INVALID', () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('a', { echo }));
    const missing = thrownBy(() =>
      orchestrator?.register({ ...testProvider('x', {}), namespace: undefined as unknown as string }),
    );
    expect(missing.code).toBe('CONFIG_INVALID');
    expect(missing.message).toContain('namespace of type undefined must match');
    expect(thrownBy(() => orchestrator?.register(testProvider('a', {}))).code).toBe('CONFIG_INVALID');
    expect(thrownBy(() => orchestrator?.register(testProvider('toolplane', {}))).message).toContain(
      "the orchestrator's own tools use it",
    );
    const noExecute = { ...testProvider('n', {}), execute: undefined as never };
    expect(thrownBy(() => orchestrator?.register(noExecute)).message).toContain('listTools() and execute()');
  });

  it('use() of null, an unknown phase or a handle that is not a function is CONFIG_INVALID', () => {
    orchestrator = createOrchestrator();
    expect(thrownBy(() => orchestrator?.use(null as unknown as Middleware)).code).toBe('CONFIG_INVALID');
    expect(thrownBy(() => orchestrator?.use({ name: 'm', phase: 'later' } as never)).code).toBe(
      'CONFIG_INVALID',
    );
    expect(
      thrownBy(() => orchestrator?.use({ name: 'm', phase: 'gate', handle: 'yes' } as never)).message,
    ).toContain('handle that is not a function');
  });
});

describe('listTools answers of the wrong shape', () => {
  it('a list that is not an array fails that provider (before, a string listed one tool per character)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register({ ...testProvider('str', {}), listTools: () => 'nope' as never });
    orchestrator.register(testProvider('good', { echo }));
    const reports = await orchestrator.warmup();
    expect(reports.find((report) => report.provider === 'str')).toMatchObject({ ok: false, tools: 0 });
    expect(orchestrator.providers().find((p) => p.namespace === 'str')?.error).toContain(
      'listTools() returned string, not an array of tool specs',
    );
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual(['batch', 'tool_output', 'good__echo']);
    expect(codeOf(await orchestrator.call('str__n', {}))).toBe('PROVIDER_UNAVAILABLE');
  });

  it('malformed entries are skipped with one warning; call() never throws (before: a TypeError)', async () => {
    orchestrator = createOrchestrator();
    const warnings: string[] = [];
    orchestrator.on('warning', (warning) => warnings.push(warning.message));
    const listed = [
      undefined,
      { name: 42, description: 'x', inputSchema: { type: 'object' } },
      { name: '', description: 'x', inputSchema: { type: 'object' } },
      { name: 'noschema', description: 'x' },
      { name: 'fine', description: 'x', inputSchema: { type: 'object' } },
    ];
    orchestrator.register({
      ...testProvider('mixed', {}),
      listTools: () => listed as never,
      execute: async (name) => ok(`ran ${name}`),
    });
    const result = await orchestrator.call('mixed__fine', {});
    expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'ran fine' });
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual([
      'batch',
      'tool_output',
      'mixed__fine',
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('tool 0 is not an object');
    expect(warnings[0]).toContain('tool 1 has no name');
    expect(warnings[0]).toContain('"noschema" has no inputSchema object');
    expect(codeOf(await orchestrator.call('mixed__noschema', {}))).toBe('TOOL_NOT_FOUND');
  });

  it('a refresh that lists garbage keeps the previous list and warns', async () => {
    orchestrator = createOrchestrator();
    const warnings: string[] = [];
    orchestrator.on('warning', (warning) => warnings.push(warning.message));
    let answer: unknown = [{ name: 'a', description: 'a', inputSchema: { type: 'object' } }];
    const provider = testProvider('r', {});
    orchestrator.register({ ...provider, listTools: () => answer as never, execute: async () => ok('a') });
    await orchestrator.warmup();
    answer = { tools: [] };
    provider.changeTools({});
    await delay(20);
    expect(warnings.join('\n')).toContain('listTools() returned object, not an array');
    expect((await orchestrator.call('r__a', {})).ok).toBe(true);
  });
});

describe('names and arguments a confused model sends', () => {
  it('a tool name that is not a string is TOOL_NOT_FOUND (before, call() threw)', async () => {
    orchestrator = createOrchestrator();
    for (const name of [undefined, 42, null, { name: 'x' }]) {
      const result = await orchestrator.call(name as unknown as string, {});
      expect(codeOf(result)).toBe('TOOL_NOT_FOUND');
      expect(messageOf(result)).toContain('a tool name must be a string');
    }
  });

  it('a very long unknown name gets a short message and no far-off suggestions', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const huge = await orchestrator.call('q'.repeat(1_000_000), {});
    expect(codeOf(huge)).toBe('TOOL_NOT_FOUND');
    expect(messageOf(huge).length).toBeLessThan(500);
    expect(messageOf(huge)).toContain('(1000000 characters)');
    expect(huge.meta?.tool.length).toBeLessThan(300);
    // 30 characters unlike anything: before, every tool within 9 edits of the cut-off was suggested
    const far = await orchestrator.call('completely_unrelated_name_here', {});
    expect(!far.ok && far.error.details?.suggestions).toEqual([]);
  });

  it('thousands of invented names share one totals entry (the records still name each)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    for (let i = 0; i < 2000; i++) await orchestrator.call(`made_up_${i}`, {});
    expect((await orchestrator.call('t__echo', {})).ok).toBe(true);
    const { totals, records } = orchestrator.accounting();
    expect(Object.keys(totals).sort()).toEqual(['(unknown tool)', 't__echo']);
    expect(totals['(unknown tool)']).toMatchObject({ calls: 2000, errors: 2000 });
    expect(records.at(-2)).toMatchObject({ tool: 'made_up_1999', ok: false, code: 'TOOL_NOT_FOUND' });
  });

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
    orchestrator = createOrchestrator();
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
    orchestrator = createOrchestrator();
    orchestrator.register(
      testProvider('t', { s: { run: () => ({ ok: true, content: [], structured: make() }) as ToolResult } }),
    );
    const result = await orchestrator.call('t__s', {});
    expect(codeOf(result)).toBe('INVALID_RESULT');
    expect(messageOf(result)).toContain('provider "t" returned an invalid result for t__s');
    expect(messageOf(result)).toContain(fragment);
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

  it('a PostToolUse hook that replaces the result with garbage gives INTERNAL (before, call() threw)', async () => {
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

describe('stops during a retry back-off', () => {
  const down = () => fail('PROVIDER_UNAVAILABLE', 'upstream is down', { retryable: true });

  it('an abort during the back-off ends the call CANCELLED, not with the earlier failure', async () => {
    orchestrator = createOrchestrator({ retry: { maxAttempts: 3, baseDelayMs: 5_000, maxDelayMs: 5_000 } });
    let runs = 0;
    orchestrator.register(
      testProvider('t', {
        r: {
          spec: { sideEffect: 'none' },
          run: () => {
            runs++;
            return down();
          },
        },
      }),
    );
    await orchestrator.warmup();
    const controller = new AbortController();
    const pending = orchestrator.call('t__r', {}, { signal: controller.signal });
    for (let i = 0; i < 200 && runs === 0; i++) await delay(5);
    await delay(50); // the first attempt has failed: the call sleeps 2.5-5 s before the next
    controller.abort(new Error('user left'));
    const result = await pending;
    expect(codeOf(result)).toBe('CANCELLED');
    expect(runs).toBe(1);
  });

  it('a deadline during the back-off ends the call TIMEOUT', async () => {
    orchestrator = createOrchestrator({ retry: { maxAttempts: 3, baseDelayMs: 5_000, maxDelayMs: 5_000 } });
    orchestrator.register(testProvider('t', { r: { spec: { sideEffect: 'none' }, run: down } }));
    const result = await orchestrator.call('t__r', {}, { timeoutMs: 100 });
    expect(codeOf(result)).toBe('TIMEOUT');
  });
});

describe('close() with providers and middleware that misbehave', () => {
  it('a close() that throws at once or hangs does not keep the others open nor the stored outputs on disk', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orchestrator-close-'));
    const outputs = join(dir, 'outputs');
    try {
      const local = createOrchestrator({ closeTimeoutMs: 200, output: { maxBytes: 1024, dir: outputs } });
      const warnings: string[] = [];
      local.on('warning', (warning) => warnings.push(warning.message));
      const good = testProvider('good', { big: { run: () => ok('x'.repeat(10_000)) } });
      local.register(
        testProvider(
          'throws',
          { echo },
          {
            close: () => {
              throw new Error('close exploded');
            },
          },
        ),
      );
      local.register(testProvider('hangs', { echo }, { close: () => new Promise<void>(() => {}) }));
      local.register(good);
      local.use({
        name: 'sticky',
        phase: 'transform',
        close: () => {
          throw new Error('middleware close exploded');
        },
      });
      expect((await local.call('good__big', {})).meta?.truncated).toBeDefined();
      expect((await readdir(outputs)).length).toBe(1);
      await local.close();
      expect(good.closed).toBe(1);
      expect(existsSync(outputs)).toBe(false);
      expect(warnings).toEqual(
        expect.arrayContaining([
          'provider "throws" failed to close: close exploded',
          'provider "hangs" did not close within 200 ms; it was left behind',
          'middleware "sticky" failed to close: middleware close exploded',
        ]),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('close() during a start that hangs ends the waiting call at once (before: it waited out startTimeoutMs)', async () => {
    orchestrator = createOrchestrator({ startTimeoutMs: 600_000 });
    let startSignal: AbortSignal | undefined;
    orchestrator.register(
      testProvider(
        't',
        { echo },
        {
          start: (signal) => {
            startSignal = signal;
            return new Promise<void>(() => {});
          },
        },
      ),
    );
    const pending = orchestrator.call('t__echo', {});
    for (let i = 0; i < 200 && !startSignal; i++) await delay(5);
    await orchestrator.close();
    const result = await pending;
    expect(codeOf(result)).toBe('PROVIDER_UNAVAILABLE');
    expect(startSignal?.aborted).toBe(true);
  });
});

describe('tool_output paths it cannot run', () => {
  it('a JSONPath filter is INVALID_ARGUMENTS pointing at plain paths (was EXECUTION_FAILED)', async () => {
    orchestrator = createOrchestrator({ output: { maxBytes: 1024 } });
    const items = Array.from({ length: 200 }, (_, id) => ({ id, name: `item ${id}` }));
    orchestrator.register(testProvider('t', { list: { run: () => ok(JSON.stringify({ items })) } }));
    const listed = await orchestrator.call('t__list', {});
    const handle = listed.meta?.truncated?.handle as string;
    expect(handle).toMatch(/^out_/);
    const filtered = await orchestrator.call('tool_output', {
      handle,
      mode: 'jsonpath',
      path: '$.items[?(@.id > 3)]',
    });
    expect(codeOf(filtered)).toBe('INVALID_ARGUMENTS');
    expect(messageOf(filtered)).toContain('filter and script expressions');
    const plain = await orchestrator.call('tool_output', {
      handle,
      mode: 'jsonpath',
      path: '$.items[5].name',
    });
    expect(plain.ok && plain.content[0]).toEqual({ type: 'text', text: '[\n  "item 5"\n]' });
  });
});
