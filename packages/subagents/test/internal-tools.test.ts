import { createToolContext, ok } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type AgentRunRequest, interpretInternalCall, isReadyToReport } from '../src/index.js';
import { agent, call, lastText, report, setup } from './helpers.js';

const base: AgentRunRequest = {
  runId: 'r',
  agent: 'a',
  depth: 0,
  systemPrompt: 's',
  task: 't',
  tools: [],
  maxIterations: 3,
  signal: new AbortController().signal,
  report: {
    format: 'json',
    schema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
  },
  callTool: async () => ok(''),
};

describe('final_report, task_status and router__handoff-to', () => {
  it('checks final_report: status, format, content_json against the schema, metadata', () => {
    expect(
      interpretInternalCall(
        'agent__final_report',
        { status: 'done', format: 'json', content_json: {} },
        base,
      ),
    ).toMatchObject({ kind: 'invalid', message: expect.stringContaining('status') });
    expect(
      interpretInternalCall('agent__final_report', { status: 'success', format: 'text', content: 'x' }, base),
    ).toMatchObject({ kind: 'invalid', message: 'args.format: must be "json"' });
    expect(
      interpretInternalCall(
        'agent__final_report',
        { status: 'success', format: 'json', content_json: { count: 'many' } },
        base,
      ),
    ).toMatchObject({
      kind: 'invalid',
      message: expect.stringMatching(/^content_json does not match the report schema: content_json\.count/),
    });
    expect(
      interpretInternalCall(
        'agent__final_report',
        { status: 'partial', format: 'json', content_json: { count: 2 }, metadata: { source: 'x' } },
        base,
        7,
      ),
    ).toEqual({
      kind: 'report',
      report: {
        status: 'partial',
        format: 'json',
        contentJson: { count: 2 },
        metadata: { source: 'x' },
        ts: 7,
      },
    });
    const text = { ...base, report: { format: 'markdown' } };
    expect(
      interpretInternalCall('agent__final_report', { status: 'success', format: 'markdown' }, text),
    ).toMatchObject({ kind: 'invalid', message: 'args.content: must be a string' });
  });

  it('forces the final turn only when all three task_status conditions hold', () => {
    const status = {
      status: 'completed',
      done: 'a',
      pending: '',
      now: 'b',
      ready_for_final_report: true,
      need_to_run_more_tools: false,
    };
    expect(interpretInternalCall('agent__task_status', status, base)).toMatchObject({
      kind: 'status',
      forceFinal: true,
    });
    for (const change of [
      { status: 'in-progress' },
      { ready_for_final_report: false },
      { need_to_run_more_tools: true },
    ]) {
      expect(interpretInternalCall('agent__task_status', { ...status, ...change }, base)).toMatchObject({
        kind: 'status',
        forceFinal: false,
      });
    }
    expect(
      isReadyToReport({
        status: 'completed',
        done: '',
        pending: '',
        now: '',
        readyForFinalReport: true,
        needToRunMoreTools: true,
      }),
    ).toBe(false);
  });

  it('after a completing task_status offers only final_report and requires it', async () => {
    await using h = await setup({
      scripts: {
        'root-model': (turn) =>
          turn === 0
            ? call('agent__task_status', {
                status: 'completed',
                done: 'all',
                pending: '',
                now: 'report',
                ready_for_final_report: true,
                need_to_run_more_tools: false,
              })
            : report('final'),
      },
    });
    const outcome = await h.manager.runAgent({ task: 'go' });
    expect(outcome.report?.content).toBe('final');
    const second = h.model.requests[1];
    expect(second?.tools.map((t) => t.function.name)).toEqual(['agent__final_report']);
    expect(second?.toolChoice).toEqual({ type: 'function', function: { name: 'agent__final_report' } });
    expect(h.steps.some((s) => s.type === 'status-reported')).toBe(true);
  });

  it('a child with an output schema returns its JSON report as structured data', async () => {
    await using h = await setup({
      agents: [
        agent('counter', {
          output: {
            format: 'json',
            schema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
          },
        }),
      ],
      scripts: {
        'counter-model': (turn, request) =>
          turn === 0
            ? {
                toolCalls: [
                  {
                    name: 'agent__final_report',
                    arguments: { status: 'success', format: 'json', content_json: { count: 'x' } },
                  },
                ],
              }
            : lastText(request).startsWith('INVALID_ARGUMENTS')
              ? {
                  toolCalls: [
                    {
                      name: 'agent__final_report',
                      arguments: { status: 'success', format: 'json', content_json: { count: 3 } },
                    },
                  ],
                }
              : undefined,
      },
    });
    const result = await h.orchestrator.call('agent__counter', { task: 'count' }, { session: { id: 'app' } });
    expect(result.ok && result.content[0]).toEqual({ type: 'text', text: '{"count":3}' });
    expect(
      result.ok && (result.structured as { report: { contentJson: unknown } }).report.contentJson,
    ).toEqual({ count: 3 });
  });

  it('offers router__handoff-to only with destinations, and delegates to the destination', async () => {
    await using h = await setup({
      agents: [
        agent('router', { router: { destinations: ['billing', 'support'] } }),
        agent('billing'),
        agent('support'),
      ],
      scripts: {
        'router-model': () =>
          call('router__handoff-to', { agent: 'billing', message: 'an invoice question' }),
        'billing-model': (_turn, request) => report(`billing got: ${String(request.messages[1]?.content)}`),
      },
    });
    const outcome = await h.manager.run({
      agent: 'router',
      task: 'why was I charged twice?',
      parent: createToolContext({ session: { id: 'app' } }),
    });
    expect(outcome.agent).toBe('billing');
    expect(outcome.handedOffFrom).toEqual(['router']);
    expect(outcome.report?.content).toBe(
      'billing got: why was I charged twice?\n\nNote from router: an invoice question',
    );
    const routerTools = h.model.requests
      .find((r) => r.model === 'router-model')
      ?.tools.map((t) => t.function.name);
    expect(routerTools).toContain('router__handoff-to');
    const billingTools = h.model.requests
      .find((r) => r.model === 'billing-model')
      ?.tools.map((t) => t.function.name);
    expect(billingTools).not.toContain('router__handoff-to');
  });
});
