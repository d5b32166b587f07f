import type { ToolResult } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { AnnounceQueue } from '../src/index.js';
import { agent, call, lastText, report, setup, until } from './helpers.js';

const app = { session: { id: 'app' } };
const structured = (result: ToolResult): Record<string, unknown> =>
  result.ok ? (result.structured as Record<string, unknown>) : {};

describe('actions as tools', () => {
  it('spawn returns an id at once and the result is announced to the parent', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      scripts: {
        'root-model': (turn, request) => {
          if (turn === 0)
            return call('subagents__spawn', { agent: 'worker', task: 'count to 3', label: 'counter' });
          if (turn === 1) return { text: 'waiting for the worker' };
          return report(`heard: ${lastText(request)}`);
        },
        'worker-model': () => report('1 2 3'),
      },
    });
    const outcome = await h.manager.runAgent({ task: 'go' });
    expect(outcome.status).toBe('completed');
    expect(outcome.report?.content).toMatch(
      /^heard: Results of subagents you spawned:\n- worker \(sub_[^)]+\): completed, report \(success\):\n1 2 3$/,
    );
    const spawned = h.steps.find((s) => s.type === 'tool-finished' && s.tool === 'subagents__spawn');
    expect(spawned?.type === 'tool-finished' && spawned.text).toMatch(/^spawned worker as sub_/);
    expect(h.steps.some((s) => s.type === 'announcements-delivered')).toBe(true);
  });

  it('batches results that arrive together into one announcement', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      manager: { announce: { debounceMs: 60_000, maxWaitMs: 60_000, maxBatch: 3 } },
      scripts: {
        'root-model': (turn, request) => {
          if (turn === 0)
            return {
              toolCalls: [1, 2, 3].map((n) => ({
                name: 'subagents__spawn',
                arguments: { agent: 'worker', task: `job ${n}` },
              })),
            };
          if (turn === 1) return { text: 'waiting' };
          return report(lastText(request));
        },
        'worker-model': (_turn, request) => report(`done ${String(request.messages[1]?.content)}`),
      },
    });
    const outcome = await h.manager.runAgent({ task: 'go' });
    const deliveries = h.steps.filter((s) => s.type === 'announcements-delivered');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.type === 'announcements-delivered' && deliveries[0].announcements).toHaveLength(3);
    for (const n of [1, 2, 3]) expect(outcome.report?.content).toContain(`done job ${n}`);
  });

  it('the announce queue delivers one batch per quiet period', async () => {
    const queue = new AnnounceQueue({ debounceMs: 10, maxWaitMs: 1000 });
    const signal = new AbortController().signal;
    const item = (childId: string) => ({ childId, agent: 'a', status: 'completed' as const });
    queue.push(item('1'));
    queue.push(item('2'));
    expect(await queue.next(signal)).toHaveLength(2);
    queue.push(item('3'));
    expect(await queue.next(signal)).toHaveLength(1);
    expect(queue.batches).toBe(2);
    const many = new AnnounceQueue({ debounceMs: 60_000, maxBatch: 2 });
    many.push(item('4'));
    many.push(item('5'));
    expect(many.take()).toHaveLength(2);
    many.close();
  });

  it('run waits for the report', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      scripts: { 'worker-model': () => report('the answer is 42') },
    });
    const result = await h.orchestrator.call('subagents__run', { agent: 'worker', task: 'answer' }, app);
    expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'the answer is 42' });
    expect(structured(result)).toMatchObject({
      agent: 'worker',
      status: 'completed',
      usage: { totalTokens: 15, runs: 1 },
    });
  });

  it('list shows the subagents of the calling session', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      scripts: { 'worker-model': () => call('t__slow') },
    });
    const spawned = await h.orchestrator.call(
      'subagents__spawn',
      { agent: 'worker', task: 'wait', label: 'waiter' },
      app,
    );
    const id = structured(spawned).id as string;
    await until(() => h.state.slowStarted === 1);
    const listed = await h.orchestrator.call('subagents__list', {}, app);
    expect(listed.ok && listed.content[0]).toMatchObject({
      text: expect.stringMatching(new RegExp(`^${id} worker "waiter": running, 1 turns`)),
    });
    const other = await h.orchestrator.call('subagents__list', {}, { session: { id: 'other' } });
    expect(other.ok && other.content[0]).toMatchObject({ text: 'no subagents' });
  });

  it('cancel takes an id, last or all, and stops what the children run', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      scripts: { 'worker-model': () => call('t__slow') },
    });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const result = await h.orchestrator.call('subagents__spawn', { agent: 'worker', task: `w${i}` }, app);
      ids.push(structured(result).id as string);
    }
    await until(() => h.state.slowStarted === 4);
    const last = await h.orchestrator.call('subagents__cancel', { target: 'last' }, app);
    expect(structured(last)).toEqual({ cancelled: [ids[3]] });
    const one = await h.orchestrator.call('subagents__cancel', { target: ids[0] }, app);
    expect(structured(one)).toEqual({ cancelled: [ids[0]] });
    expect(h.manager.get(ids[0] as string)?.state).toBe('cancelled');
    const all = await h.orchestrator.call('subagents__cancel', { target: 'all' }, app);
    expect(structured(all)).toEqual({ cancelled: [ids[1], ids[2]] });
    expect(h.state.slowCancelled).toBe(4);
    expect(h.manager.runningCount).toBe(0);
    const unknown = await h.orchestrator.call('subagents__cancel', { target: 'sub_nope' }, app);
    expect(!unknown.ok && unknown.error.code).toBe('INVALID_ARGUMENTS');
    const nothing = await h.orchestrator.call('subagents__cancel', { target: 'all' }, app);
    expect(nothing.ok && nothing.content[0]).toMatchObject({
      text: expect.stringContaining('nothing to cancel'),
    });
  });

  it('steer cancels, settles and respawns with the new message', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      scripts: {
        'worker-model': (_turn, request) =>
          String(request.messages[1]?.content).startsWith('NEW DIRECTION')
            ? report('redirected')
            : call('t__slow'),
      },
    });
    const spawned = await h.orchestrator.call(
      'subagents__spawn',
      { agent: 'worker', task: 'the old task' },
      app,
    );
    const oldId = structured(spawned).id as string;
    await until(() => h.state.slowStarted === 1);
    const steered = await h.orchestrator.call(
      'subagents__steer',
      { id: oldId, message: 'NEW DIRECTION: stop waiting' },
      app,
    );
    expect(steered.ok).toBe(true);
    const newId = structured(steered).id as string;
    expect(newId).not.toBe(oldId);
    expect(h.manager.get(oldId)?.state).toBe('cancelled');
    expect(h.state.slowCancelled).toBe(1);
    const outcome = await h.manager.wait(newId);
    expect(outcome.report?.content).toBe('redirected');
    expect(h.manager.get(newId)).toMatchObject({ steeredFrom: oldId, state: 'completed' });
    // only the respawned child announces; the steered one ends silently
    const inbox = h.manager.inbox('app');
    const batch = await inbox.next(new AbortController().signal);
    expect(batch.map((item) => item.childId)).toEqual([newId]);
  });
});
