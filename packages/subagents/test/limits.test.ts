import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type AgentStep, DEFAULT_LIMITS, SubagentManager, createOpenAIRunner } from '../src/index.js';
import { agent, call, report, setup } from './helpers.js';

const toolText = (steps: readonly AgentStep[], tool: string): string[] =>
  steps.flatMap((s) => (s.type === 'tool-finished' && s.tool === tool ? [s.text] : []));

describe('limits', () => {
  it('has the defaults of design document 002 plus per-child budgets', () => {
    expect(DEFAULT_LIMITS).toEqual({
      maxConcurrent: 8,
      maxSpawnDepth: 1,
      maxChildrenPerAgent: 5,
      maxIterations: 20,
      maxTokensPerChild: 200_000,
      maxWallTimeMs: 600_000,
      archiveAfterMs: 3_600_000,
    });
  });

  it('refuses a limit that is not a positive whole number with CONFIG_INVALID', async () => {
    await using h = await setup({ scripts: {} });
    expect(
      () =>
        new SubagentManager({
          orchestrator: h.orchestrator,
          runner: createOpenAIRunner({ env: {} }),
          limits: { maxConcurrent: 0 },
        }),
    ).toThrow(/maxConcurrent/);
  });

  it('states the limits in the spawn tool description', async () => {
    await using h = await setup({
      scripts: {},
      agents: [agent('worker')],
      limits: { maxConcurrent: 3, maxChildrenPerAgent: 2 },
    });
    await h.orchestrator.warmup();
    const spawn = h.orchestrator.listTools().find((spec) => spec.name === 'subagents__spawn');
    expect(spawn?.description).toContain('at most 3 subagents running at once in all and 2 per parent');
    expect(spawn?.description).toContain('nesting depth 1');
    expect(spawn?.description).toContain('20 model turns, 200000 tokens and 600 s');
    expect(spawn?.description).toContain('worker (the worker agent)');
  });

  it('refuses a spawn past maxConcurrent, naming the limit', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      limits: { maxConcurrent: 2 },
      scripts: {
        'root-model': (turn) =>
          turn === 0
            ? {
                toolCalls: [1, 2, 3].map((n) => ({
                  name: 'subagents__spawn',
                  arguments: { agent: 'worker', task: `job ${n}` },
                })),
              }
            : report('spawned what I could'),
        'worker-model': () => call('t__slow'),
      },
    });
    const outcome = await h.manager.runAgent({ task: 'spawn three' });
    expect(outcome.status).toBe('completed');
    const texts = toolText(h.steps, 'subagents__spawn');
    expect(texts.filter((t) => t.startsWith('spawned'))).toHaveLength(2);
    expect(texts[2]).toMatch(/^DENIED: subagent limit maxConcurrent \(2\) reached/);
    // the root's end cancelled its background children
    expect(h.manager.runningCount).toBe(0);
  });

  it('refuses a spawn past maxChildrenPerAgent, naming the limit', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      limits: { maxChildrenPerAgent: 1 },
      scripts: {
        'root-model': (turn) =>
          turn === 0
            ? {
                toolCalls: [1, 2].map((n) => ({
                  name: 'subagents__spawn',
                  arguments: { agent: 'worker', task: `job ${n}` },
                })),
              }
            : report('ok'),
        'worker-model': () => call('t__slow'),
      },
    });
    await h.manager.runAgent({ task: 'spawn two' });
    expect(toolText(h.steps, 'subagents__spawn')[1]).toMatch(
      /^DENIED: subagent limit maxChildrenPerAgent \(1\) reached/,
    );
  });

  it('refuses a spawn from a session at maxSpawnDepth, naming the limit', async () => {
    await using h = await setup({ agents: [agent('worker')], scripts: {} });
    const parent = createToolContext({ session: { id: 'deep', depth: 1 } });
    let thrown: unknown;
    try {
      h.manager.spawn({ agent: 'worker', task: 'x', parent });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'DENIED', details: { limit: 'maxSpawnDepth', value: 1 } });
    expect(String((thrown as Error).message)).toContain('maxSpawnDepth (1)');
  });

  it('ends a child at maxIterations; the parent gets the failure and goes on', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      limits: { maxIterations: 2 },
      scripts: {
        'root-model': (turn, request) =>
          turn === 0
            ? call('agent__worker', { task: 'loop' })
            : report(`child said: ${String(request.messages.at(-1)?.content)}`),
        'worker-model': () => call('t__echo', { text: 'again' }),
      },
    });
    const outcome = await h.manager.runAgent({ task: 'go', maxIterations: 5 });
    expect(outcome.status).toBe('completed');
    expect(outcome.report?.content).toMatch(/BUDGET_EXCEEDED: .*used its 2 model turns \(maxIterations\)/);
    expect(h.model.requests.filter((r) => r.model === 'worker-model')).toHaveLength(2);
  });

  it('ends a child past its token budget with BUDGET_EXCEEDED', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      limits: { maxTokensPerChild: 20 },
      scripts: {
        'root-model': (turn) => (turn === 0 ? call('agent__worker', { task: 'spend' }) : report('done')),
        'worker-model': () => ({
          ...call('t__echo', { text: 'x' }),
          usage: { prompt_tokens: 10, completion_tokens: 5 },
        }),
      },
    });
    await h.manager.runAgent({ task: 'go' });
    const text = toolText(h.steps, 'agent__worker')[0];
    expect(text).toMatch(/^BUDGET_EXCEEDED: .*used 30 tokens, over its budget of 20 \(maxTokensPerChild\)/);
  });

  it('ends a child past its wall-time budget, cancelling its running tool call', async () => {
    await using h = await setup({
      agents: [agent('worker')],
      limits: { maxWallTimeMs: 1000 },
      scripts: {
        'root-model': (turn) => (turn === 0 ? call('agent__worker', { task: 'wait' }) : report('done')),
        'worker-model': () => call('t__slow'),
      },
    });
    await h.manager.runAgent({ task: 'go' });
    expect(toolText(h.steps, 'agent__worker')[0]).toMatch(
      /^BUDGET_EXCEEDED: .*1000 ms wall-time budget \(maxWallTimeMs\)/,
    );
    // on a loaded machine the budget may pass before the call starts; a started call is stopped
    expect(h.state.slowCancelled).toBe(h.state.slowStarted);
  });

  it('archives an ended subagent after archiveAfterMs', async () => {
    let now = 1_000_000;
    await using h = await setup({
      agents: [agent('worker')],
      manager: { now: () => now },
      scripts: { 'worker-model': () => report('done') },
    });
    const parent = createToolContext({ session: { id: 'app' } });
    const record = h.manager.spawn({ agent: 'worker', task: 'x', parent, background: true });
    await h.manager.wait(record.id);
    expect(h.manager.list('app').map((info) => info.state)).toEqual(['completed']);
    now += DEFAULT_LIMITS.archiveAfterMs - 1;
    expect(h.manager.list('app')).toHaveLength(1);
    now += 1;
    expect(h.manager.list('app')).toHaveLength(0);
    expect(h.manager.get(record.id)).toMatchObject({ archived: true, state: 'completed' });
    expect(h.manager.list('app', { includeArchived: true })).toHaveLength(1);
  });
});
