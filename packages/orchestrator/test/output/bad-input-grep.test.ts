import { describe, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { createOrchestrator } from '../../src/index.js';
import { codeOf, delay, endedAfterEach, testProvider } from '../helpers.js';

// A model's grep pattern that backtracks without end ((a+)+$ on lines of a's) would hold the
// orchestrator's own thread for hours, the call's deadline included. It runs in a worker that
// the deadline or a cancel terminates.

const { track } = endedAfterEach();

function withStoredOutput() {
  const local = track(createOrchestrator({ output: { maxBytes: 1024 } }));
  const evil = `${'a'.repeat(40)}!`;
  const lines = Array.from({ length: 200 }, (_, i) => (i % 2 ? evil : `line ${i}`)).join('\n');
  local.register(
    testProvider('p', {
      big: { run: () => ok(lines) },
      tick: {
        spec: { sideEffect: 'none' },
        run: async () => {
          await delay(20);
          return ok('tick');
        },
      },
    }),
  );
  return local;
}

describe('tool_output grep with a pattern that backtracks', () => {
  it('ends TIMEOUT at its deadline while other calls keep running', async () => {
    const local = withStoredOutput();
    const big = await local.call('p__big', {});
    const handle = big.meta?.truncated?.handle as string;
    expect(handle).toMatch(/\S/);
    const order: string[] = [];
    const grep = local
      .call('tool_output', { handle, mode: 'grep', pattern: '(a+)+$' }, { timeoutMs: 1500 })
      .then((result) => order.push(`grep ${codeOf(result)}`));
    const tick = local.call('p__tick', {}).then((result) => order.push(`tick ${codeOf(result)}`));
    await Promise.all([grep, tick]);
    expect(order).toEqual(['tick OK', 'grep TIMEOUT']);
  }, 30_000);

  it('a cancelled grep ends CANCELLED, and a plain grep still answers', async () => {
    const local = withStoredOutput();
    const big = await local.call('p__big', {});
    const handle = big.meta?.truncated?.handle as string;
    const controller = new AbortController();
    const grep = local.call(
      'tool_output',
      { handle, mode: 'grep', pattern: '(a+)+$' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 200);
    expect(codeOf(await grep)).toBe('CANCELLED');
    const plain = await local.call('tool_output', { handle, mode: 'grep', pattern: 'line 1\\d$', limit: 2 });
    expect(plain.ok && plain.content[0]).toEqual({
      type: 'text',
      text: '[2 matching lines (stopped at 2) of 200 lines]\n11:line 10\n--\n13:line 12',
    });
  }, 30_000);
});

describe('tool_output with an offset past the end', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      'lines',
      { offset: 1e12, limit: 2 },
      /offset 1000000000000 is past the end: the output has 200 lines; use an offset from 1 to 200/,
    ],
    [
      'bytes',
      { mode: 'bytes', offset: 1e15, limit: 10 },
      /offset 1000000000000000 is past the end: the output has \d+ bytes; use an offset from 0 to \d+/,
    ],
  ])('%s: INVALID_ARGUMENTS saying how long the output is', async (_, slice, message) => {
    const local = withStoredOutput();
    const big = await local.call('p__big', {});
    const handle = big.meta?.truncated?.handle as string;
    const result = await local.call('tool_output', { handle, ...slice });
    expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
    expect(result.ok ? '' : result.error.message).toMatch(message);
  });
});
