import {
  type ApprovalRequest,
  createLocalProvider,
  createToolContext,
  defineTool,
  ok,
} from '@toolplane/core';
import { createCallbackApprovalChannel, createPolicy, policyMiddleware } from '@toolplane/policy';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SubagentApprovalRequest } from '../src/index.js';
import { agent, call, report, setup } from './helpers.js';

const named = (name: string, sideEffect: 'read' | 'network' = 'read') =>
  defineTool({ name, description: name, input: z.object({}), sideEffect, execute: () => ok(`${name} ran`) });

describe("children's tool lists and approvals", () => {
  it('applies the always-denied list at depth 1 and the leaf list at the maximum depth', async () => {
    const offered: Record<string, string[]> = {};
    await using h = await setup({
      agents: [agent('planner'), agent('worker')],
      limits: { maxSpawnDepth: 2 },
      register: (orchestrator) =>
        orchestrator.register(
          createLocalProvider({
            namespace: 'x',
            prefixNames: false,
            tools: [named('cron'), named('sessions_spawn'), named('lookup')],
          }),
        ),
      scripts: {
        'root-model': (turn, request) => {
          offered.root = request.tools.map((t) => t.function.name);
          return turn === 0 ? call('agent__planner', { task: 'plan' }) : report('done');
        },
        'planner-model': (turn, request) => {
          offered.planner = request.tools.map((t) => t.function.name);
          return turn === 0 ? call('agent__worker', { task: 'work' }) : report('planned');
        },
        'worker-model': (turn, request) => {
          offered.worker = request.tools.map((t) => t.function.name);
          return turn === 0 ? call('cron') : report(String(request.messages.at(-1)?.content));
        },
      },
    });
    await h.manager.runAgent({ task: 'go' });
    expect(offered.root).toEqual(
      expect.arrayContaining(['cron', 'sessions_spawn', 'lookup', 'agent__planner', 'subagents__spawn']),
    );
    expect(offered.planner).not.toContain('cron');
    expect(offered.planner).toEqual(
      expect.arrayContaining(['sessions_spawn', 'lookup', 'agent__worker', 'subagents__spawn']),
    );
    for (const hidden of [
      'cron',
      'sessions_spawn',
      'agent__planner',
      'agent__worker',
      'subagents__spawn',
      'subagents__steer',
    ]) {
      expect(offered.worker).not.toContain(hidden);
    }
    expect(offered.worker).toEqual(expect.arrayContaining(['lookup', 't__echo', 'agent__final_report']));
    // a call to a hidden tool is refused even when the model names it
    const workerEnd = h.steps.find((s) => s.type === 'tool-finished' && s.agent === 'worker');
    expect(workerEnd?.type === 'tool-finished' && workerEnd.text).toMatch(
      /^TOOL_NOT_FOUND: "cron" is not one of your tools/,
    );
  });

  it("narrows a child to its definition's allow list, and a batch cannot reach past it", async () => {
    await using h = await setup({
      agents: [agent('reader', { tools: { allow: ['t__echo'] } })],
      scripts: {
        'reader-model': (turn, request) =>
          turn === 0
            ? call('batch', {
                calls: [
                  { tool: 't__echo', args: { text: 'a' } },
                  { tool: 't__write_note', args: { text: 'b' } },
                ],
              })
            : report(String(request.messages.at(-1)?.content)),
      },
    });
    const outcome = await h.manager.run({
      agent: 'reader',
      task: 'read',
      parent: createToolContext({ session: { id: 'app' } }),
    });
    expect(h.model.requests[0]?.tools.map((t) => t.function.name).sort()).toEqual([
      'agent__final_report',
      'agent__task_status',
      'batch',
      't__echo',
      'tool_output',
    ]);
    expect(outcome.report?.content).toContain('may not call t__write_note');
  });

  it("asks a child's approvals on the parent's channel, naming the child", async () => {
    const asked: ApprovalRequest[] = [];
    await using h = await setup({
      agents: [agent('fetcher')],
      register: (orchestrator) => {
        orchestrator.register(createLocalProvider({ namespace: 'net', tools: [named('fetch', 'network')] }));
        orchestrator.use(policyMiddleware(createPolicy({})));
      },
      scripts: {
        'root-model': (turn, request) =>
          turn === 0
            ? call('agent__fetcher', { task: 'fetch it' })
            : report(String(request.messages.at(-1)?.content)),
        'fetcher-model': (turn, request) =>
          turn === 0 ? call('net__fetch') : report(String(request.messages.at(-1)?.content)),
      },
    });
    const approvals = createCallbackApprovalChannel((request) => {
      asked.push(request);
      return 'allow-once';
    });
    const outcome = await h.manager.runAgent({ task: 'go', services: { approvals } });
    expect(outcome.report?.content).toBe('fetch ran');
    // the root's agent__fetcher call was asked as the root; net__fetch as the child
    const fromChild = asked.find((request) => request.tool === 'net__fetch') as SubagentApprovalRequest;
    expect(fromChild.reason).toMatch(/^subagent "fetcher" \(sub_[^,]+, depth 1, via fetcher\) asks: /);
    expect(fromChild.subagent).toMatchObject({ agent: 'fetcher', depth: 1 });
    expect(fromChild.sessionId).toBe(fromChild.subagent.id);
  });

  it('gives a child no approvals when its parent has none', async () => {
    await using h = await setup({
      agents: [agent('fetcher')],
      register: (orchestrator) => {
        orchestrator.register(createLocalProvider({ namespace: 'net', tools: [named('fetch', 'network')] }));
        orchestrator.use(policyMiddleware(createPolicy({ autoAllow: ['agent__*', 'subagents__*'] })));
      },
      scripts: {
        'root-model': (turn, request) =>
          turn === 0
            ? call('agent__fetcher', { task: 'fetch it' })
            : report(String(request.messages.at(-1)?.content)),
        'fetcher-model': (turn, request) =>
          turn === 0 ? call('net__fetch') : report(String(request.messages.at(-1)?.content)),
      },
    });
    const outcome = await h.manager.runAgent({ task: 'go' });
    expect(outcome.report?.content).toMatch(/^APPROVAL_REQUIRED/);
  });

  it('never runs a child in a looser mode than its parent', async () => {
    const modes: string[] = [];
    const spy = defineTool({
      name: 'mode',
      description: 'mode',
      input: z.object({}),
      sideEffect: 'read',
      execute: (_a, ctx) => ok(String(modes.push(ctx.session.mode ?? 'none'))),
    });
    await using h = await setup({
      agents: [agent('loose', { mode: 'bypass' })],
      register: (orchestrator) =>
        orchestrator.register(createLocalProvider({ namespace: 'm', tools: [spy] })),
      scripts: { 'loose-model': (turn) => (turn === 0 ? call('m__mode') : report('ok')) },
    });
    await h.manager.run({
      agent: 'loose',
      task: 'x',
      parent: createToolContext({ session: { id: 'app', mode: 'plan' } }),
    });
    expect(modes).toEqual(['plan']);
  });
});
