import { createLocalProvider, defineTool, ok } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentRunRequest, createOpenAIRunner } from '../src/index.js';
import { startScriptedModel } from '../src/testing/index.js';
import { call, report, setup } from './helpers.js';

function request(overrides: Partial<AgentRunRequest> = {}): AgentRunRequest {
  return {
    runId: 'r1',
    agent: 'main',
    depth: 0,
    systemPrompt: 'You are a test.',
    task: 'do it',
    tools: [],
    maxIterations: 5,
    signal: new AbortController().signal,
    report: { format: 'text' },
    callTool: async () => ok('unused'),
    ...overrides,
  };
}

describe('the OpenAI-compatible runner', () => {
  it('streams text and ends with a plain answer as a text report', async () => {
    await using model = await startScriptedModel({
      replies: { m: [{ text: 'hello from a streamed answer' }] },
    });
    const runner = createOpenAIRunner({ baseUrl: model.url, model: 'm', env: {} });
    const streamed: string[] = [];
    const result = await runner.run(
      request({ onStep: (e) => e.type === 'text-streamed' && streamed.push(e.text) }),
    );
    expect(result.report).toMatchObject({
      status: 'success',
      format: 'text',
      content: 'hello from a streamed answer',
    });
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed.join('')).toBe('hello from a streamed answer');
    expect(model.requests[0]?.stream).toBe(true);
    expect(result.usage.totalTokens).toBe(15);
  });

  it('reads non-streamed answers too', async () => {
    await using model = await startScriptedModel({ replies: { m: [report('done')] } });
    const runner = createOpenAIRunner({ baseUrl: model.url, model: 'm', env: {}, stream: false });
    const result = await runner.run(request());
    expect(result.report.content).toBe('done');
    expect(model.requests[0]?.stream).toBe(false);
  });

  it('takes the base URL and key from OPENAI_BASE_URL and OPENAI_API_KEY', async () => {
    await using model = await startScriptedModel({ replies: { m: [{ text: 'ok' }] } });
    const key = `k-${Math.random().toString(36).slice(2)}`;
    const runner = createOpenAIRunner({
      model: 'm',
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: key },
    });
    await runner.run(request());
    expect(model.requests[0]?.authorization).toBe(`Bearer ${key}`);
  });

  it('runs tool calls through the orchestrator and ends on agent__final_report', async () => {
    await using model = await startScriptedModel({
      replies: { m: [call('t__echo', { text: 'ping' }), report('the echo said ping')] },
    });
    const orchestrator = createOrchestrator();
    orchestrator.register(
      createLocalProvider({
        namespace: 't',
        tools: [
          defineTool({
            name: 'echo',
            description: 'echo',
            input: z.object({ text: z.string() }),
            sideEffect: 'read',
            execute: ({ text }) => ok(text),
          }),
        ],
      }),
    );
    await orchestrator.warmup();
    const runner = createOpenAIRunner({ baseUrl: model.url, model: 'm', env: {} });
    const result = await runner.run(
      request({
        tools: orchestrator.listTools().filter((spec) => spec.name === 't__echo'),
        callTool: (name, args) => orchestrator.call(name, args),
      }),
    );
    expect(result.report.content).toBe('the echo said ping');
    expect(result.iterations).toBe(2);
    const second = model.requests[1];
    expect(second?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'ping' });
    expect(second?.tools.map((tool) => tool.function.name)).toEqual([
      't__echo',
      'agent__final_report',
      'agent__task_status',
    ]);
    await orchestrator.close();
  });

  it('runs consecutive read-only calls of one answer at once, and mutating ones alone', async () => {
    await using h = await setup({
      scripts: {
        'root-model': (turn) =>
          turn === 0
            ? {
                toolCalls: [
                  { name: 't__wait', arguments: { ms: 500 } },
                  { name: 't__wait', arguments: { ms: 500 } },
                  { name: 't__wait', arguments: { ms: 500 } },
                  { name: 't__write_note', arguments: { text: 'a' } },
                ],
              }
            : report('ok'),
      },
    });
    const outcome = await h.manager.runAgent({ task: 'go' });
    expect(outcome.status).toBe('completed');
    expect(h.state.peak).toBe(3);
    const finished = h.steps
      .filter((s) => s.type === 'tool-finished')
      .map((s) => (s.type === 'tool-finished' ? s.tool : ''));
    expect(finished.at(-1)).toBe('t__write_note');
  });

  it('fails with BUDGET_EXCEEDED naming maxIterations when the model never reports', async () => {
    await using model = await startScriptedModel({ respond: () => call('nope__tool') });
    const runner = createOpenAIRunner({ baseUrl: model.url, model: 'm', env: {} });
    await expect(runner.run(request({ maxIterations: 3 }))).rejects.toMatchObject({
      code: 'BUDGET_EXCEEDED',
      message: expect.stringContaining('maxIterations'),
    });
    expect(model.requests).toHaveLength(3);
  });

  it('asks for agent__final_report when a json report is required and the model answers in text', async () => {
    await using model = await startScriptedModel({
      replies: {
        m: [
          { text: 'here it is' },
          {
            toolCalls: [
              {
                name: 'agent__final_report',
                arguments: { status: 'success', format: 'json', content_json: { n: 1 } },
              },
            ],
          },
        ],
      },
    });
    const runner = createOpenAIRunner({ baseUrl: model.url, model: 'm', env: {} });
    const result = await runner.run(
      request({
        report: {
          format: 'json',
          schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        },
      }),
    );
    expect(result.report.contentJson).toEqual({ n: 1 });
    expect(model.requests[1]?.messages.at(-1)?.content).toContain('agent__final_report');
  });

  it('refuses a run without a model with CONFIG_INVALID', async () => {
    const runner = createOpenAIRunner({ baseUrl: 'http://127.0.0.1:9/v1', env: {} });
    await expect(runner.run(request())).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
