import { afterEach, expect, it } from 'vitest';
import { type ToolContext, fail, ok, onAbort } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, testProvider, waitFor } from '../helpers.js';

// N calls of one cached tool with the same arguments, made together, do the work once: the
// first runs, the others wait for its answer. A failure or a stop of the first does not become
// theirs, and a stop of one that waits ends only that one.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

/** A cached tool whose runs the test answers one by one (`answer`), counting them. */
function held(): {
  local: ToolsOrchestrator;
  runs: () => number;
  answer: (text: string | Error) => void;
  running: () => number;
} {
  const local = createOrchestrator({ retry: { maxAttempts: 1 } });
  orchestrator = local;
  let runs = 0;
  const waiting: Array<(answer: string | Error) => void> = [];
  local.register(
    testProvider('p', {
      slow: {
        spec: { sideEffect: 'read', cacheTtlMs: 60_000 },
        run: (_args, ctx: ToolContext) => {
          runs++;
          return new Promise((resolve) => {
            const stop = onAbort(ctx, () => {
              const at = waiting.indexOf(settle);
              if (at !== -1) waiting.splice(at, 1);
              resolve(fail('CANCELLED', 'stopped'));
            });
            const settle = (answer: string | Error): void => {
              stop();
              resolve(answer instanceof Error ? fail('EXECUTION_FAILED', answer.message) : ok(answer));
            };
            waiting.push(settle);
          });
        },
      },
    }),
  );
  return {
    local,
    runs: () => runs,
    running: () => waiting.length,
    answer: (text) => waiting.shift()?.(text),
  };
}

it('ten calls made together run the tool once and all get its answer', async () => {
  const { local, runs, answer, running } = held();
  await local.warmup();
  const calls = Array.from({ length: 10 }, () => local.call('p__slow', { q: 'same' }));
  await waitFor(() => running() === 1);
  answer('the answer');
  const results = await Promise.all(calls);
  // one run of the tool, not ten
  expect(runs()).toBe(1);
  expect(results.map((result) => (result.ok ? result.content : result.error.code))).toEqual(
    Array.from({ length: 10 }, () => [{ type: 'text', text: 'the answer' }]),
  );
  expect(results.filter((result) => result.meta?.cached).length).toBe(9);
  // other arguments are other work
  const other = local.call('p__slow', { q: 'other' });
  await waitFor(() => running() === 1);
  answer('another');
  expect(codeOf(await other)).toBe('OK');
  expect(runs()).toBe(2);
  expect(local.stats().inflight).toBe(0);
});

it('a failure of the call that runs is not handed to the others: one of them runs again', async () => {
  const { local, runs, answer, running } = held();
  await local.warmup();
  const calls = Array.from({ length: 5 }, () => local.call('p__slow', { q: 'same' }));
  await waitFor(() => running() === 1);
  answer(new Error('the backend hiccuped'));
  await waitFor(() => running() === 1 && runs() === 2);
  answer('second try');
  const results = await Promise.all(calls);
  expect(results.map(codeOf)).toEqual(['EXECUTION_FAILED', 'OK', 'OK', 'OK', 'OK']);
  expect(runs()).toBe(2);
});

it('a cancel of the call that runs, or of one that waits, ends only that call', async () => {
  const { local, runs, answer, running } = held();
  await local.warmup();
  const first = new AbortController();
  const waiter = new AbortController();
  const leader = local.call('p__slow', { q: 'same' }, { signal: first.signal });
  await waitFor(() => running() === 1);
  const follower = local.call('p__slow', { q: 'same' }, { signal: waiter.signal });
  const others = Array.from({ length: 3 }, () => local.call('p__slow', { q: 'same' }));
  waiter.abort();
  expect(codeOf(await follower)).toBe('CANCELLED');
  first.abort();
  expect(codeOf(await leader)).toBe('CANCELLED');
  // one of the others runs in its place
  await waitFor(() => running() === 1 && runs() === 2);
  answer('after the cancel');
  expect((await Promise.all(others)).map(codeOf)).toEqual(['OK', 'OK', 'OK']);
  expect(runs()).toBe(2);
});

it('a call that waits for another still ends at its own deadline', async () => {
  const { local, answer, running } = held();
  await local.warmup();
  const leader = local.call('p__slow', { q: 'same' });
  await waitFor(() => running() === 1);
  const follower = await local.call('p__slow', { q: 'same' }, { timeoutMs: 50 });
  expect(codeOf(follower)).toBe('TIMEOUT');
  answer('late');
  expect(codeOf(await leader)).toBe('OK');
});
