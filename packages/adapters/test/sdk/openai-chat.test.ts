import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIChatTools } from '../../src/openai/index.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { PIXEL_PNG, createTestOrchestrator } from '../helpers/tools.js';

function completion(message: Record<string, unknown>, finish: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'scripted',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finish }],
  };
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('OpenAI Chat Completions adapter', () => {
  it('runs a full round trip: tools out, a tool call in, the tool message out, the answer back', async () => {
    const { orchestrator, calls } = await createTestOrchestrator();
    server = await startScriptedServer((request, turn) => {
      if (turn === 0)
        return completion(
          {
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                // strict mode: every property is sent, null for the ones the model leaves out
                function: {
                  name: 'weather__forecast',
                  arguments: '{"city":"Oslo","days":null,"units":"metric"}',
                },
              },
            ],
          },
          'tool_calls',
        );
      const messages = request.body.messages as { role: string; content: string }[];
      return completion({ content: `It says: ${messages.at(-1)?.content}` }, 'stop');
    });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: `test-${Math.random()}` });
    const toolset = createOpenAIChatTools(orchestrator);
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    const first = await client.chat.completions.create({ model: 'scripted', messages, tools: toolset.tools });
    const message = first.choices[0]?.message;
    if (!message) throw new Error('no message');
    messages.push(message, ...(await toolset.handleToolCalls(message)));
    const second = await client.chat.completions.create({
      model: 'scripted',
      messages,
      tools: toolset.tools,
    });

    expect(second.choices[0]?.message.content).toBe('It says: Oslo: sunny for 1 day(s), metric');
    expect(calls).toEqual([{ tool: 'forecast', args: { city: 'Oslo', units: 'metric' } }]);
    const sentTools = server.requests[0]?.body.tools as {
      function: { name: string; strict: boolean; parameters: unknown };
    }[];
    const forecast = sentTools.find((t) => t.function.name === 'weather__forecast');
    expect(forecast?.function.strict).toBe(true);
    expect(forecast?.function.parameters).toMatchObject({
      additionalProperties: false,
      required: ['city', 'days', 'units'],
      properties: { days: { type: ['integer', 'null'] } },
    });
    expect(server.requests[1]?.body.messages).toContainEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'Oslo: sunny for 1 day(s), metric',
    });
    await orchestrator.close();
  });

  it('describes an image in the tool message, which carries text only', async () => {
    const { orchestrator } = await createTestOrchestrator();
    const toolset = createOpenAIChatTools(orchestrator);
    const [reply] = await toolset.handleToolCalls({
      tool_calls: [
        { id: 'i', type: 'function', function: { name: 'media__chart', arguments: '{"title":"t"}' } },
      ],
    });
    expect(reply?.content).toBe(
      `chart t\n[image image/png, ${Buffer.from(PIXEL_PNG, 'base64').length} bytes, not shown]`,
    );
    await orchestrator.close();
  });

  it('answers failures, unknown tools and arguments that are not JSON as tool messages with their code', async () => {
    const { orchestrator } = await createTestOrchestrator();
    const toolset = createOpenAIChatTools(orchestrator, { strict: false });
    const replies = await toolset.handleToolCalls({
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'media__broken', arguments: '{}' } },
        { id: 'b', type: 'function', function: { name: 'nope', arguments: '{}' } },
        { id: 'c', type: 'function', function: { name: 'weather__forecast', arguments: '{"city":' } },
        { id: 'd', type: 'function', function: { name: 'weather__forecast', arguments: '{"city":""}' } },
      ],
    });
    expect(replies.map((r) => [r.tool_call_id, String(r.content).split(':')[0]])).toEqual([
      ['a', 'ERROR EXECUTION_FAILED'],
      ['b', 'ERROR TOOL_NOT_FOUND'],
      ['c', 'ERROR INVALID_ARGUMENTS'],
      ['d', 'ERROR INVALID_ARGUMENTS'],
    ]);
    expect(toolset.tools.every((t) => t.function.strict === undefined)).toBe(true);
    await orchestrator.close();
  });
});
