import { afterEach, describe, expect, it } from 'vitest';
import { type ToolResult, ok } from '@toolplane/core';
import { type ToolHooks, type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, messageOf, thrownBy, testProvider } from '../helpers.js';

// A hostile caller, hook or provider: views that cannot be read, arguments JSON cannot carry,
// results broken or too large on their way out, instructions that cannot be used, and a
// middleware that hands next() another tool.

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
  ])('%s is INVALID_ARGUMENTS', async (_what, view) => {
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
    'arguments %s deny the call naming the hook, and nothing runs',
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

describe('results made invalid or too large on their way out', () => {
  it('a PostToolUse hook that breaks the result in place gives INTERNAL naming the hook, as a bad replacement does', async () => {
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

  it('a failure whose message is over the size cap is cut, saying how long it was', async () => {
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
  it('text over the size cap is cut between characters, never inside an emoji', async () => {
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

describe('instructions() with providers whose instructions cannot be used', () => {
  it('a provider whose instructions() throws or answers no string is left out with a warning; the others are combined', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const warnings: string[] = [];
    local.on('warning', (event) => warnings.push(event.message));
    const tools = { x: { run: () => ok('x') } };
    local.register(testProvider('good', tools, { instructions: () => '  Use good__x for x.  ' }));
    local.register(
      testProvider('throws', tools, {
        instructions: () => {
          throw new Error('instructions trap');
        },
      }),
    );
    local.register(testProvider('object', tools, { instructions: () => ({ text: 'no' }) as never }));
    local.register(testProvider('async', tools, { instructions: async () => 'later' } as never));
    await local.warmup();
    expect(local.instructions()).toBe('## good\nUse good__x for x.');
    expect(warnings).toEqual([
      'provider "throws": instructions() threw: instructions trap; left out of instructions()',
      'provider "object": instructions() answered an object, not a string; left out of instructions()',
      'provider "async": instructions() answered an object, not a string; left out of instructions()',
    ]);
  });
});

describe('a middleware that hands next() another tool', () => {
  it('fails the call INTERNAL running nothing, and caches nothing under the other tool', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const runs: string[] = [];
    const ran = (tool: string, text: string): ToolResult => {
      runs.push(tool);
      return ok(text);
    };
    local.register(
      testProvider('p', {
        a: { spec: { sideEffect: 'none' }, run: () => ran('a', 'A ran') },
        b: { spec: { sideEffect: 'none', cacheTtlMs: 60_000 }, run: () => ran('b', 'B ran') },
      }),
    );
    await local.warmup();
    const toolB = local.listRegistered().find((tool) => tool.name === 'p__b');
    local.use({
      name: 'reroute',
      phase: 'gate',
      handle: (call, next) =>
        call.tool.name === 'p__a' && toolB ? next({ ...call, tool: toolB }) : next(call),
    });
    const swapped = await local.call('p__a', {});
    expect(codeOf(swapped)).toBe('INTERNAL');
    expect(messageOf(swapped)).toBe(
      "a middleware handed next() the tool p__b for a call to p__a; middleware cannot change the tool a call runs, so nothing was run. Call next() with the call's own tool (call.tool)",
    );
    expect(runs).toEqual([]);
    const genuine = await local.call('p__b', {});
    expect(genuine.ok && genuine.content[0]?.type === 'text' && genuine.content[0].text).toBe('B ran');
    expect(runs).toEqual(['b']);
  });
});
