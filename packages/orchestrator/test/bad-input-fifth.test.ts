import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { type ToolHooks, type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { codeOf, messageOf, thrownBy } from './bad-input-helpers.js';
import { testProvider, waitFor } from './helpers.js';

// The fifth sweep: what a hostile caller, hook or provider found that the earlier ones had left.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

/** An orchestrator (closed after the test) with provider `p` and its tool `x`, counting runs. */
function serving(hooks?: ToolHooks, validation = true): { local: ToolsOrchestrator; runs: unknown[] } {
  const local = createOrchestrator({ validation, ...(hooks ? { hooks } : {}) });
  orchestrator = local;
  const runs: unknown[] = [];
  local.register(
    testProvider('p', {
      x: {
        spec: { sideEffect: 'none', cacheTtlMs: 60_000 },
        run: (args) => {
          runs.push(args);
          return ok('ran');
        },
      },
    }),
  );
  return { local, runs };
}

/** A surrogate that is not half of a pair: what cutting inside an emoji leaves. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function trap(): never {
  throw new Error('view trap');
}

describe('listTools(view) with a view that cannot be read', () => {
  it.each<[string, unknown]>([
    ['a Proxy whose reads throw', new Proxy({}, { get: trap })],
    [
      'a principal getter that throws',
      {
        get principal() {
          return trap();
        },
      },
    ],
    [
      'a session whose id getter throws',
      {
        session: {
          get id() {
            return trap();
          },
        },
      },
    ],
    ['an array', []],
  ])('%s is INVALID_ARGUMENTS (before: the raw error, or an array taken as a view)', async (_what, view) => {
    const { local } = serving();
    await local.warmup();
    for (const list of [() => local.listTools(view as never), () => local.listRegistered(view as never)]) {
      const error = thrownBy(list);
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toMatch(/^listTools\(view\) needs a view object \{ principal\?, session\? \}/);
    }
    // a plain view still works
    expect(local.listTools({ principal: { agentId: 'coder' } }).map((spec) => spec.name)).toContain('p__x');
  });
});

describe('a PreToolUse hook that leaves arguments JSON cannot carry', () => {
  const cases: [string, ToolHooks['preToolUse']][] = [
    [
      'made cyclic in place',
      ({ args }) => {
        (args as Record<string, unknown>).self = args;
        return undefined;
      },
    ],
    ['rewritten with a BigInt', () => ({ args: { n: 10n } })],
    [
      'rewritten with a getter that throws',
      () => ({
        args: {
          get boom(): string {
            throw new Error('getter');
          },
        },
      }),
    ],
  ];
  it.each(cases)(
    'arguments %s deny the call naming the hook, and nothing runs (before: INTERNAL "the pipeline failed")',
    async (_what, preToolUse) => {
      const { local, runs } = serving({ preToolUse });
      const result = await local.call('p__x', { a: 1 });
      expect(codeOf(result)).toBe('DENIED');
      expect(messageOf(result)).toMatch(
        /^the PreToolUse hook left the arguments of p__x as something JSON cannot carry \(serializing them failed [\s\S]+\), so it was not run; fix the hook$/,
      );
      expect(runs).toEqual([]);
    },
  );

  it('with validation off too, for a Proxy whose keys throw', async () => {
    const { local, runs } = serving(
      { preToolUse: () => ({ args: new Proxy({}, { ownKeys: trap }) }) },
      false,
    );
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('DENIED');
    expect(messageOf(result)).toContain('view trap');
    expect(runs).toEqual([]);
  });
});

describe('a cached answer changed in place by whoever got it', () => {
  it('a PostToolUse hook, an app middleware or the caller changing it in place leaves the cached answer as it was (before: it grew on every hit)', async () => {
    const local = createOrchestrator({
      hooks: {
        postToolUse: ({ result }) => {
          // an audit hook that tags the result in place instead of returning additionalContext
          (result.content as unknown[]).push({ type: 'text', text: 'audited' });
          return undefined;
        },
      },
    });
    orchestrator = local;
    local.use({
      name: 'exclaim',
      phase: 'observe',
      async handle(call, next) {
        const result = await next(call);
        const first = result.content?.[0] as { type: string; text: string } | undefined;
        if (first?.type === 'text') first.text += '!';
        return result;
      },
    });
    let runs = 0;
    local.register(
      testProvider('p', {
        x: {
          spec: { sideEffect: 'none', cacheTtlMs: 60_000 },
          run: () => {
            runs++;
            return { ok: true, content: [{ type: 'text', text: 'x' }], structured: { items: [1] } };
          },
        },
      }),
    );
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await local.call('p__x', {});
      seen.push(JSON.stringify([result.content, result.ok && result.structured]));
      // the caller changes what it got, too
      if (result.ok) {
        (result.content as unknown[]).length = 0;
        (result.structured as { items: number[] }).items.push(99);
      }
    }
    const expected = JSON.stringify([
      [
        { type: 'text', text: 'x!' },
        { type: 'text', text: 'audited' },
      ],
      { items: [1] },
    ]);
    expect(seen).toEqual([expected, expected, expected]);
    expect(runs).toBe(1);
    expect(local.accounting().totals.p__x?.cached).toBe(2);
  });
});

describe('results made invalid or too large on their way out', () => {
  it('a PostToolUse hook that breaks the result in place gives INTERNAL naming the hook, as a bad replacement does (before: the caller got the broken result)', async () => {
    const { local } = serving({
      postToolUse: ({ result }) => {
        (result.content as unknown[]).push({ type: 'bogus' });
        return undefined;
      },
    });
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('INTERNAL');
    expect(messageOf(result)).toMatch(
      /^the PostToolUse hook left the result of p__x invalid \(content\[1\] is not a valid content block\); fix the hook$/,
    );
  });

  it('a failure whose message is over the size cap is cut, saying how long it was (before: a 5 MB message went to the model whole)', async () => {
    const local = createOrchestrator({ output: { maxBytes: 1000 } });
    orchestrator = local;
    local.register(
      testProvider('p', {
        x: {
          run: () => ({
            ok: false,
            error: { code: 'EXECUTION_FAILED', message: `<html>${'é'.repeat(2_500_000)}</html>` },
          }),
        },
      }),
    );
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('EXECUTION_FAILED');
    const message = messageOf(result);
    expect(Buffer.byteLength(message)).toBeLessThan(1200);
    expect(message.startsWith('<html>éé')).toBe(true);
    expect(message).toMatch(/\[error message cut at 1000 bytes of 5000013\]$/);
    expect(LONE_SURROGATE.test(message)).toBe(false);
  });
});

describe('the head of text over the size cap', () => {
  it('text over the size cap is cut between characters, never inside an emoji (before: its head could end in half of one)', async () => {
    const local = createOrchestrator({ output: { maxBytes: 1001 } });
    orchestrator = local;
    local.register(testProvider('p', { x: { run: () => ok('\u{1F600}'.repeat(100_000)) } }));
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('OK');
    const head = result.ok && result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(head.startsWith('\u{1F600}\u{1F600}')).toBe(true);
    expect(LONE_SURROGATE.test(head)).toBe(false);
    expect(result.meta?.truncated).toBeDefined();
  });
});

describe('a cached answer across a list change', () => {
  it('a provider that re-lists its tools drops their cached answers (before: the old tool answer was served until its TTL)', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const cached = { sideEffect: 'none', cacheTtlMs: 60_000 } as const;
    const provider = testProvider('p', { x: { spec: cached, run: () => ok('v1') } });
    const other = testProvider('q', { y: { spec: cached, run: () => ok('y') } });
    local.register(provider);
    local.register(other);
    const textOf = async (name: string): Promise<string> => {
      const result = await local.call(name, {});
      return result.ok && result.content[0]?.type === 'text' ? result.content[0].text : codeOf(result);
    };
    expect([await textOf('p__x'), await textOf('q__y')]).toEqual(['v1', 'y']);
    let changes = 0;
    local.on('tools_changed', () => changes++);
    provider.changeTools({ x: { spec: cached, run: () => ok('v2') } });
    await waitFor(() => changes === 1);
    expect(await textOf('p__x')).toBe('v2');
    // another provider's cached answers are kept
    await textOf('q__y');
    expect(local.accounting().totals.q__y).toMatchObject({ calls: 2, cached: 1 });
  });
});

describe('public names across list changes', () => {
  it('a tool keeps its public name when another tool of that name comes or goes (before: names shifted, and a stale name ran another tool)', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const bare = { prefixNames: false } as const;
    const deleter = { x: { spec: { description: 'A deletes files' }, run: () => ok('A deleted') } };
    const a = testProvider('a', deleter, bare);
    const b = testProvider('b', { x: { spec: { description: 'B reads' }, run: () => ok('B read') } }, bare);
    local.register(a);
    local.register(b);
    await local.warmup();
    let changes = 0;
    local.on('tools_changed', () => changes++);
    const named = (): string[] =>
      local
        .listTools()
        .filter((spec) => spec.name.startsWith('x'))
        .map((spec) => `${spec.name}: ${spec.description}`);
    expect(named()).toEqual(['x: A deletes files', 'x_2: B reads']);
    a.changeTools({});
    await waitFor(() => changes === 1);
    expect(named()).toEqual(['x_2: B reads']);
    // a model still holding the first list calls x: not B's tool under A's old name
    expect(codeOf(await local.call('x', {}))).toBe('TOOL_NOT_FOUND');
    a.changeTools(deleter);
    await waitFor(() => changes === 2);
    expect(named()).toEqual(['x: A deletes files', 'x_2: B reads']);
    // a model holding the second list calls x_2 to read: it still reads
    const read = await local.call('x_2', {});
    expect(read.ok && read.content[0]?.type === 'text' && read.content[0].text).toBe('B read');
  });
});

describe('many media blocks in one result', () => {
  it('a result carries at most maxMediaBytes of media in all; the rest is omitted with a note (before: the cap was per block, so 40 blocks of 1 MB all went through)', async () => {
    const local = createOrchestrator({ output: { maxMediaBytes: 5_000_000 } });
    orchestrator = local;
    const image = { type: 'image', data: 'A'.repeat(1_000_000), mimeType: 'image/png' } as const;
    local.register(
      testProvider('p', {
        x: {
          run: () => ({ ok: true, content: [{ type: 'text', text: 'pictures' }, ...Array(40).fill(image)] }),
        },
      }),
    );
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('OK');
    const content = result.ok ? result.content : [];
    expect(content.filter((block) => block.type === 'image')).toHaveLength(5);
    expect(content[0]).toEqual({ type: 'text', text: 'pictures' });
    expect(content.at(-1)).toEqual({
      type: 'text',
      text: '[35 media blocks omitted: a result carries at most 5000000 bytes of media]',
    });
  });
});
