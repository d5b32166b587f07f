import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAISDKTools } from '../../src/ai-sdk/index.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { createTestOrchestrator } from '../helpers/tools.js';

function completion(message: Record<string, unknown>, finish: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'scripted',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finish }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function toolCall(name: string, args: string) {
  return completion(
    { tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: args } }] },
    'tool_calls',
  );
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('Vercel AI SDK adapter', () => {
  it('runs generateText through a tool call and back to the answer', async () => {
    const { orchestrator, calls } = await createTestOrchestrator();
    server = await startScriptedServer((request, turn) => {
      if (turn === 0) return toolCall('weather__forecast', '{"city":"Lima","days":2}');
      const messages = request.body.messages as { role: string; content: string }[];
      return completion({ content: `done: ${messages.find((m) => m.role === 'tool')?.content}` }, 'stop');
    });
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: `test-${Math.random()}` });
    const result = await generateText({
      model: provider.chat('scripted'),
      tools: createAISDKTools(orchestrator),
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Lima?',
    });
    expect(result.text).toBe('done: Lima: sunny for 2 day(s), metric');
    expect(calls).toEqual([{ tool: 'forecast', args: { city: 'Lima', days: 2 } }]);
    await orchestrator.close();
  });

  it('passes the abort signal through to the tool, which ends CANCELLED', async () => {
    const { orchestrator, calls } = await createTestOrchestrator();
    server = await startScriptedServer(() => toolCall('media__slow', '{}'));
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: `test-${Math.random()}` });
    const controller = new AbortController();
    const tools = createAISDKTools(orchestrator, { tools: ['media__slow'] });
    const started = new Promise<void>((resolve) => {
      const off = orchestrator.on('tool_started', () => {
        off();
        resolve();
      });
    });
    const run = generateText({
      model: provider.chat('scripted'),
      tools,
      stopWhen: stepCountIs(1),
      prompt: 'wait',
      abortSignal: controller.signal,
    });
    await started;
    controller.abort();
    const result = await run;
    expect(result.toolResults[0]?.output).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    await orchestrator.close();
    expect(calls).toEqual([{ tool: 'slow', args: {}, aborted: true }]);
  });

  it('maps needsApproval to the AI SDK tool approval: the call waits for an approval and never runs', async () => {
    const { orchestrator, calls } = await createTestOrchestrator();
    server = await startScriptedServer(() => toolCall('weather__forecast', '{"city":"Rome"}'));
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: `test-${Math.random()}` });
    const asked: unknown[] = [];
    const result = await generateText({
      model: provider.chat('scripted'),
      tools: createAISDKTools(orchestrator, {
        needsApproval: (tool, input) => {
          asked.push([tool.name, input]);
          return tool.sideEffect !== 'none';
        },
      }),
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Rome?',
    });
    const approvals = result.content.filter((part) => part.type === 'tool-approval-request');
    expect(approvals).toHaveLength(1);
    expect(asked).toEqual([['weather__forecast', { city: 'Rome' }]]);
    expect(calls).toEqual([]);
    await orchestrator.close();
  });
});
