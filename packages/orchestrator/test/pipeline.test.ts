import { readdirSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Middleware, type ToolResult, fail, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { delay, echo, testProvider, waitFor } from './helpers.js';

let orchestrator: ToolsOrchestrator;
afterEach(async () => {
  await orchestrator?.close();
});

function text(result: ToolResult): string {
  return (result.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

describe('cache', () => {
  it('serves repeated calls within the TTL from cache, keyed by stable arguments and principal', async () => {
    let clock = 1_000_000;
    orchestrator = createOrchestrator({
      timers: {
        now: () => clock,
        setTimeout: (f, ms) => setTimeout(f, ms),
        clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
      },
    });
    let calls = 0;
    orchestrator.register(
      testProvider('w', {
        get: { spec: { cacheTtlMs: 1000, sideEffect: 'read' }, run: () => ok(`answer ${++calls}`) },
      }),
    );
    const first = await orchestrator.call('w__get', { a: 1, b: 2 });
    const second = await orchestrator.call('w__get', { b: 2, a: 1 });
    expect(text(second)).toBe('answer 1');
    expect(first.meta?.cached).toBe(false);
    expect(second.meta?.cached).toBe(true);
    const otherUser = await orchestrator.call('w__get', { a: 1, b: 2 }, { principal: { userId: 'bob' } });
    expect(text(otherUser)).toBe('answer 2');
    clock += 1001;
    expect(text(await orchestrator.call('w__get', { a: 1, b: 2 }))).toBe('answer 3');
  });

  it('does not cache failures, and uses the provider TTL when the tool has none', async () => {
    orchestrator = createOrchestrator();
    let calls = 0;
    orchestrator.register(
      testProvider('w', {
        flaky: { run: () => (++calls === 1 ? fail('EXECUTION_FAILED', 'first fails') : ok('second works')) },
      }),
      { cacheTtlMs: 60_000 },
    );
    expect((await orchestrator.call('w__flaky', {})).ok).toBe(false);
    expect((await orchestrator.call('w__flaky', {})).ok).toBe(true);
    expect((await orchestrator.call('w__flaky', {})).meta?.cached).toBe(true);
    expect(calls).toBe(2);
  });
});

describe('size cap and tool_output', () => {
  const lines = Array.from(
    { length: 5000 },
    (_, i) => `line ${i + 1} ${i % 100 === 0 ? 'NEEDLE' : 'hay'}`,
  ).join('\n');
  const json = JSON.stringify({
    items: Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `item-${i}` })),
  });

  it('stores an oversized output, returns its head with a handle, and tool_output reads it back', async () => {
    orchestrator = createOrchestrator({ output: { maxBytes: 4096 } });
    orchestrator.register(
      testProvider('big', { lines: { run: () => ok(lines) }, json: { run: () => ok(json) } }),
    );
    const result = await orchestrator.call('big__lines', {}, { session: { id: 's1' } });
    expect(result.ok).toBe(true);
    const shown = text(result);
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(4096);
    expect(shown.startsWith('line 1 NEEDLE\nline 2 hay')).toBe(true);
    const handle = result.meta?.truncated?.handle as string;
    expect(result.meta?.truncated).toMatchObject({
      reason: 'bytes',
      lines: 5000,
      bytes: Buffer.byteLength(lines),
    });
    expect(shown).toContain(handle);

    const slice = await orchestrator.call(
      'tool_output',
      { handle, offset: 4999, limit: 5 },
      { session: { id: 's1' } },
    );
    expect(text(slice)).toBe('[lines 4999-5000 of 5000]\nline 4999 hay\nline 5000 hay');
    const bytes = await orchestrator.call(
      'tool_output',
      { handle, mode: 'bytes', offset: 0, limit: 13 },
      { session: { id: 's1' } },
    );
    expect(text(bytes)).toBe(`[bytes 0-13 of ${Buffer.byteLength(lines)}]\nline 1 NEEDLE`);
    const grep = await orchestrator.call(
      'tool_output',
      { handle, mode: 'grep', pattern: 'needle', limit: 3 },
      { session: { id: 's1' } },
    );
    expect(text(grep)).toBe(
      '[3 matching lines (stopped at 3) of 5000 lines]\n1:line 1 NEEDLE\n--\n101:line 101 NEEDLE\n--\n201:line 201 NEEDLE',
    );

    const jsonResult = await orchestrator.call('big__json', {}, { session: { id: 's1' } });
    const jsonHandle = jsonResult.meta?.truncated?.handle as string;
    const query = await orchestrator.call(
      'tool_output',
      { handle: jsonHandle, mode: 'jsonpath', path: '$.items[2999].name' },
      { session: { id: 's1' } },
    );
    expect(JSON.parse(text(query))).toEqual(['item-2999']);
  });

  it('keeps a handle private to its session and reports bad requests clearly', async () => {
    orchestrator = createOrchestrator({ output: { maxBytes: 2048 } });
    orchestrator.register(testProvider('big', { lines: { run: () => ok(lines) } }));
    const result = await orchestrator.call('big__lines', {}, { session: { id: 'owner' } });
    const handle = result.meta?.truncated?.handle as string;
    const stranger = await orchestrator.call('tool_output', { handle }, { session: { id: 'someone-else' } });
    expect(!stranger.ok && stranger.error.code).toBe('INVALID_ARGUMENTS');
    const traversal = await orchestrator.call(
      'tool_output',
      { handle: '../../etc/passwd' },
      { session: { id: 'owner' } },
    );
    expect(!traversal.ok && traversal.error.message).toContain('no stored output');
    const badRegex = await orchestrator.call(
      'tool_output',
      { handle, mode: 'grep', pattern: '(' },
      { session: { id: 'owner' } },
    );
    expect(!badRegex.ok && badRegex.error.message).toContain('not a valid regular expression');
    const notJson = await orchestrator.call(
      'tool_output',
      { handle, mode: 'jsonpath', path: '$.a' },
      { session: { id: 'owner' } },
    );
    expect(!notJson.ok && notJson.error.message).toContain('not JSON');
  });

  it('caps by estimated tokens too', async () => {
    orchestrator = createOrchestrator({ output: { maxTokens: 500 } });
    orchestrator.register(testProvider('big', { lines: { run: () => ok(lines) } }));
    const result = await orchestrator.call('big__lines', {});
    expect(Buffer.byteLength(text(result))).toBeLessThanOrEqual(2000);
    expect(result.meta?.truncated?.reason).toBe('tokens');
  });
});

describe('limits', () => {
  it('refuses an output that does not fit the session context budget', async () => {
    orchestrator = createOrchestrator({ contextBudget: { maxTokensPerSession: 100 } });
    orchestrator.register(testProvider('t', { say: { run: (args) => ok('x'.repeat(Number(args.n))) } }));
    expect((await orchestrator.call('t__say', { n: 300 }, { session: { id: 'a' } })).ok).toBe(true);
    const over = await orchestrator.call('t__say', { n: 200 }, { session: { id: 'a' } });
    expect(!over.ok && over.error.code).toBe('BUDGET_EXCEEDED');
    expect(!over.ok && over.error.message).toContain('25 tokens left');
    expect((await orchestrator.call('t__say', { n: 200 }, { session: { id: 'b' } })).ok).toBe(true);
    expect(orchestrator.budgetUsed('a')).toBe(75);
  });

  it('rate-limits per session with a token bucket', async () => {
    orchestrator = createOrchestrator({ rateLimit: { capacity: 3, refillPerSecond: 0.001 } });
    orchestrator.register(testProvider('t', { echo }));
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await orchestrator.call('t__echo', {}, { session: { id: 'busy' } });
      codes.push(result.ok ? 'OK' : result.error.code);
    }
    expect(codes).toEqual(['OK', 'OK', 'OK', 'RATE_LIMITED', 'RATE_LIMITED']);
    expect((await orchestrator.call('t__echo', {}, { session: { id: 'calm' } })).ok).toBe(true);
  });

  it('refuses a rate limit that could never allow a call', () => {
    for (const rateLimit of [
      { capacity: 0.5, refillPerSecond: 1 },
      { capacity: 3, refillPerSecond: 0 },
    ]) {
      expect(() => createOrchestrator({ rateLimit })).toThrow(/capacity must be at least 1/);
    }
  });
});

describe('hooks', () => {
  it('PreToolUse can deny, rewrite arguments and add context; PostToolUse can add context', async () => {
    orchestrator = createOrchestrator({
      hooks: {
        preToolUse: ({ tool, args }) => {
          if (args.path === '/etc/shadow') return { deny: true, reason: 'secrets are off limits' };
          if (tool.name === 't__echo')
            return { args: { ...args, rewritten: true }, additionalContext: 'note from pre' };
          return undefined;
        },
        postToolUse: ({ result }) => ({ additionalContext: result.ok ? 'post saw ok' : 'post saw failure' }),
      },
    });
    orchestrator.register(testProvider('t', { echo }));
    const denied = await orchestrator.call('t__echo', { path: '/etc/shadow' });
    expect(!denied.ok && denied.error).toMatchObject({
      code: 'DENIED',
      message: 'denied by a PreToolUse hook: secrets are off limits',
    });
    const rewritten = await orchestrator.call('t__echo', { a: 1 });
    expect(text(rewritten)).toBe('{"a":1,"rewritten":true}\npost saw ok\nnote from pre');
  });

  it('a hook that throws denies (fails closed)', async () => {
    orchestrator = createOrchestrator({
      hooks: {
        preToolUse: () => {
          throw new Error('hook crashed');
        },
      },
    });
    orchestrator.register(testProvider('t', { echo }));
    const result = await orchestrator.call('t__echo', {});
    expect(!result.ok && result.error.code).toBe('DENIED');
  });
});

describe('retries follow the side-effect class', () => {
  it('retries a read-only tool on a retryable failure, never a mutating one', async () => {
    orchestrator = createOrchestrator({ retry: { maxAttempts: 3, baseDelayMs: 1 } });
    let reads = 0;
    let writes = 0;
    orchestrator.register(
      testProvider('svc', {
        read: {
          spec: { sideEffect: 'read' },
          run: () => (++reads < 3 ? fail('PROVIDER_UNAVAILABLE', 'try again') : ok('read ok')),
        },
        write: {
          spec: { sideEffect: 'mutating' },
          run: () => {
            writes++;
            return fail('PROVIDER_UNAVAILABLE', 'try again');
          },
        },
        bad: { spec: { sideEffect: 'read' }, run: () => fail('EXECUTION_FAILED', 'not retryable') },
      }),
    );
    const read = await orchestrator.call('svc__read', {});
    expect(read.ok).toBe(true);
    expect(read.meta?.attempts).toBe(3);
    const write = await orchestrator.call('svc__write', {});
    expect(write.ok).toBe(false);
    expect(writes).toBe(1);
    expect((await orchestrator.call('svc__bad', {})).meta?.attempts).toBe(1);
  });
});

describe('middleware extension point', () => {
  it('orders middleware by phase, outermost first, whatever the order of use()', async () => {
    orchestrator = createOrchestrator();
    const trace: string[] = [];
    const make = (name: string, phase: Middleware['phase']): Middleware => ({
      name,
      phase,
      async handle(call, next) {
        trace.push(`>${name}`);
        const result = await next(call);
        trace.push(`<${name}`);
        return result;
      },
    });
    orchestrator.use(make('scrub', 'transform')).use(make('policy', 'gate')).use(make('audit', 'observe'));
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.call('t__echo', {});
    expect(trace).toEqual(['>audit', '>policy', '>scrub', '<scrub', '<policy', '<audit']);
  });

  it('filters the list a principal sees and can transform progress and results', async () => {
    orchestrator = createOrchestrator();
    const upper: Middleware = {
      name: 'upper',
      phase: 'transform',
      filterTools: (tools, view) =>
        view.principal.agentId === 'restricted' ? tools.filter((t) => t.name !== 't__secret') : tools,
      async handle(call, next) {
        const progress = call.ctx.progress;
        const result = await next({
          ...call,
          ctx: { ...call.ctx, progress: (u) => progress({ ...u, message: u.message?.toUpperCase() }) },
        });
        return result.ok
          ? { ...result, content: [{ type: 'text', text: text(result).toUpperCase() }] }
          : result;
      },
    };
    orchestrator.use(upper);
    orchestrator.register(
      testProvider('t', {
        secret: echo,
        talk: {
          run: (_a, ctx) => {
            ctx.progress({ message: 'halfway', progress: 1, total: 2 });
            return ok('done');
          },
        },
      }),
    );
    await orchestrator.warmup();
    const seen = orchestrator.listTools({ principal: { agentId: 'restricted' } }).map((t) => t.name);
    expect(seen).not.toContain('t__secret');
    expect(orchestrator.listTools().map((t) => t.name)).toContain('t__secret');
    const updates: string[] = [];
    const result = await orchestrator.call(
      't__talk',
      {},
      { progress: (u) => updates.push(String(u.message)) },
    );
    expect(text(result)).toBe('DONE');
    expect(updates).toEqual(['HALFWAY']);
  });

  it('refuses middleware with an unknown phase', () => {
    orchestrator = createOrchestrator();
    expect(() => orchestrator.use({ name: 'x', phase: 'nowhere' as never })).toThrow(/unknown phase/);
  });
});

describe('events, accounting and the operation tree', () => {
  it('emits started/progress/finished and records every call', async () => {
    orchestrator = createOrchestrator();
    const events: string[] = [];
    orchestrator.on('tool_started', (e) => events.push(`started ${e.tool}`));
    orchestrator.on('tool_progress', (e) => events.push(`progress ${e.update.progress}/${e.update.total}`));
    orchestrator.on('tool_finished', (e) => events.push(`finished ${e.tool} ${e.ok}`));
    orchestrator.register(
      testProvider('t', {
        work: {
          run: async (_a, ctx) => {
            ctx.progress({ progress: 1, total: 2 });
            await delay(5);
            return ok('12345');
          },
        },
      }),
    );
    await orchestrator.call('t__work', { x: 'abc' }, { session: { id: 's' } });
    await orchestrator.call('t__nope', {}, { session: { id: 's' } });
    expect(events).toEqual([
      'started t__work',
      'progress 1/2',
      'finished t__work true',
      'finished t__nope false',
    ]);
    const { records, totals } = orchestrator.accounting();
    expect(records[0]).toMatchObject({
      tool: 't__work',
      ok: true,
      bytesIn: 11,
      bytesOut: 5,
      cached: false,
      attempts: 1,
      sessionId: 's',
    });
    expect(records[0]?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(records[1]).toMatchObject({ tool: 't__nope', ok: false, code: 'TOOL_NOT_FOUND' });
    expect(totals.t__work?.calls).toBe(1);
  });

  it('builds an operation tree per session that child sessions attach to', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(
      testProvider('agent', {
        child: {
          run: async (_a, ctx) => {
            const child = await orchestrator.call(
              'agent__leaf',
              {},
              { session: { id: 'child-1', depth: 1, parentId: ctx.session.id } },
            );
            const tree = orchestrator.operationTree('child-1');
            if (tree) ctx.op?.attach(tree);
            return child;
          },
        },
        leaf: echo,
      }),
    );
    await orchestrator.call('agent__child', {}, { session: { id: 'root' } });
    const tree = orchestrator.operationTree('root');
    expect(tree?.children[0]).toMatchObject({ name: 'agent__child', status: 'ok' });
    expect(tree?.children[0]?.children[0]).toMatchObject({ kind: 'session', name: 'child-1' });
    expect(tree?.children[0]?.children[0]?.children[0]).toMatchObject({ name: 'agent__leaf', status: 'ok' });
  });
});

describe('batch', () => {
  it('runs read-only calls in parallel and mutating ones alone, in order, each through the pipeline', async () => {
    orchestrator = createOrchestrator();
    const log: string[] = [];
    let running = 0;
    let peak = 0;
    const step = (name: string, sideEffect: 'read' | 'mutating') => ({
      spec: { sideEffect },
      run: async () => {
        running++;
        peak = Math.max(peak, running);
        log.push(`start ${name}`);
        await delay(20);
        log.push(`end ${name}`);
        running--;
        return ok(name);
      },
    });
    orchestrator.register(
      testProvider('s', { r1: step('r1', 'read'), r2: step('r2', 'read'), w: step('w', 'mutating') }),
    );
    const result = await orchestrator.call('batch', {
      calls: [{ tool: 's__r1' }, { tool: 's__r2' }, { tool: 's__w' }, { tool: 's__missing' }],
    });
    expect(result.ok).toBe(true);
    expect(peak).toBe(2);
    expect(log.indexOf('start w')).toBeGreaterThan(log.indexOf('end r2'));
    const structured = (result.ok ? result.structured : undefined) as {
      results: Array<{ ok: boolean; error?: { code: string } }>;
    };
    expect(structured.results.map((r) => r.ok)).toEqual([true, true, true, false]);
    expect(structured.results[3]?.error?.code).toBe('TOOL_NOT_FOUND');
    const inner = orchestrator.accounting().records.filter((r) => r.tool.startsWith('s__'));
    expect(inner.map((r) => r.code ?? 'OK')).toEqual(['OK', 'OK', 'OK', 'TOOL_NOT_FOUND']);
  });

  it('refuses a nested batch and an empty one', async () => {
    orchestrator = createOrchestrator();
    const nested = await orchestrator.call('batch', { calls: [{ tool: 'batch', args: { calls: [] } }] });
    expect(!nested.ok && nested.error.message).toContain('cannot contain another batch');
    const empty = await orchestrator.call('batch', { calls: [] });
    expect(!empty.ok && empty.error.code).toBe('INVALID_ARGUMENTS');
  });
});

describe('stored outputs expire', () => {
  it('a handle stops working after its TTL and its file is removed', async () => {
    // the store reads the orchestrator's clock: no wall-clock race with a loaded machine
    let clock = 1_000_000;
    const dir = join(await mkdtemp(join(tmpdir(), 'toolplane-ttl-')), 'out');
    orchestrator = createOrchestrator({
      output: { maxBytes: 1024, ttlMs: 50, dir },
      timers: {
        now: () => clock,
        setTimeout: (f, ms) => setTimeout(f, ms),
        clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
      },
    });
    orchestrator.register(testProvider('big', { t: { run: () => ok('y'.repeat(10_000)) } }));
    const result = await orchestrator.call('big__t', {});
    const handle = result.meta?.truncated?.handle as string;
    expect(await readdir(dir)).toHaveLength(1);
    clock += 49;
    expect((await orchestrator.call('tool_output', { handle, mode: 'bytes', limit: 3 })).ok).toBe(true);
    clock += 1;
    const expired = await orchestrator.call('tool_output', { handle });
    expect(!expired.ok && expired.error.message).toContain('expired');
    await waitFor(() => readdirSync(dir).length === 0);
    expect(await readdir(dir)).toEqual([]);
    await rm(dirname(dir), { recursive: true, force: true });
  });
});

describe('a middleware that spreads the context', () => {
  it('cannot break cancellation: the provider still gets a working signal', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use({
      name: 'spreader',
      phase: 'transform',
      handle: (call, next) => next({ ...call, ctx: { ...call.ctx } }),
    });
    let aborted = false;
    orchestrator.register(
      testProvider('p', {
        wait: {
          run: (_a, ctx) =>
            new Promise((resolve) => {
              ctx.signal.addEventListener('abort', () => {
                aborted = true;
                resolve(ok('stopped'));
              });
            }),
        },
      }),
    );
    const result = await orchestrator.call('p__wait', {}, { timeoutMs: 50 });
    expect(!result.ok && result.error.code).toBe('TIMEOUT');
    expect(aborted).toBe(true);
  });
});
