import {
  type ToolContext,
  createLocalProvider,
  createToolContext,
  defineTool,
  formatOpTree,
  ok,
} from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agent, call, report, setup } from './helpers.js';

describe('trace context, ancestors, operation tree and accounting', () => {
  it('propagates trace context into a grandchild and sums accounting up to the root', async () => {
    const seen: ToolContext[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Records its context.',
      input: z.object({}),
      sideEffect: 'read',
      execute: (_args, ctx) => {
        seen.push(ctx);
        return ok('probed');
      },
    });
    await using h = await setup({
      agents: [agent('planner'), agent('worker')],
      limits: { maxSpawnDepth: 2 },
      register: (orchestrator) =>
        orchestrator.register(createLocalProvider({ namespace: 'p', tools: [probe] })),
      scripts: {
        'root-model': (turn) => (turn === 0 ? call('agent__planner', { task: 'plan' }) : report('root done')),
        'planner-model': (turn) =>
          turn === 0 ? call('agent__worker', { task: 'work' }) : report('planner done'),
        'worker-model': (turn) => (turn === 0 ? call('p__probe') : report('worker done')),
      },
    });
    const outcome = await h.manager.runAgent({ task: 'go', sessionId: 'root-session' });
    expect(outcome.status).toBe('completed');
    const ctx = seen[0] as ToolContext;
    expect(ctx.trace.originId).toBe('root-session');
    expect(ctx.trace.callPath).toEqual(['agent__planner', 'agent__worker', 'p__probe']);
    expect(ctx.session.depth).toBe(2);
    expect(ctx.session.parentId).toMatch(/^sub_/);
    // 3 runs, 2 model turns each at 15 tokens, 3 tool calls (two agent__ calls and the probe)
    expect(outcome.usage).toMatchObject({
      runs: 3,
      modelTurns: 6,
      totalTokens: 90,
      promptTokens: 60,
      completionTokens: 30,
      toolCalls: 3,
      toolErrors: 0,
    });
    // the operation tree: root > agent__planner call > planner session > agent__worker call > worker session > probe
    const text = formatOpTree(outcome.tree);
    const lines = text.split('\n').map((line) => line.trim().split(' (')[0]);
    expect(lines).toEqual([
      '◆ main',
      '• agent__planner',
      '◆ agent__planner',
      '• agent__worker',
      '◆ agent__worker',
      '• p__probe',
    ]);
  });

  it('refuses a spawn that would make a cycle', async () => {
    await using h = await setup({
      agents: [agent('planner'), agent('worker')],
      limits: { maxSpawnDepth: 3 },
      scripts: {
        'planner-model': (turn, request) =>
          turn === 0
            ? call('agent__worker', { task: 'work' })
            : report(String(request.messages.at(-1)?.content)),
        'worker-model': (turn, request) =>
          turn === 0
            ? call('agent__planner', { task: 'back to you' })
            : report(String(request.messages.at(-1)?.content)),
      },
    });
    const outcome = await h.manager.runAgent({ task: 'go', agent: 'planner' });
    expect(outcome.report?.content).toMatch(
      /^DENIED: spawning "planner" would make a cycle \(planner > worker > planner\)/,
    );
    const parent = createToolContext({ session: { id: 'app' }, principal: { agentId: 'worker' } });
    expect(() => h.manager.spawn({ agent: 'worker', task: 'me again', parent })).toThrow(
      /cycle \(worker > worker\)/,
    );
  });
});
