import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createLangChainTools } from '../../src/langchain/index.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { createTestOrchestrator } from '../helpers/tools.js';

function completion(message: Record<string, unknown>, finish: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'scripted',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finish }],
  };
}

// LangChain messages as Chat Completions messages: the small loop a LangChain user's chat model runs
function toOpenAI(messages: BaseMessage[]): unknown[] {
  return messages.map((m) => {
    if (m instanceof ToolMessage) return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    if (m instanceof AIMessage)
      return {
        role: 'assistant',
        content: null,
        tool_calls: (m.tool_calls ?? []).map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.args) },
        })),
      };
    return { role: 'user', content: m.content };
  });
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('LangChain adapter', () => {
  it('runs StructuredTools in a round trip: the model asks, the tool answers a ToolMessage, the model answers', async () => {
    const { orchestrator, calls } = await createTestOrchestrator();
    server = await startScriptedServer((request, turn) => {
      if (turn === 0)
        return completion(
          {
            tool_calls: [
              {
                id: 'call_7',
                type: 'function',
                function: { name: 'weather__forecast', arguments: '{"city":"Kyiv","units":"imperial"}' },
              },
            ],
          },
          'tool_calls',
        );
      const messages = request.body.messages as { role: string; content: string }[];
      return completion({ content: `answer: ${messages.at(-1)?.content}` }, 'stop');
    });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: `test-${Math.random()}` });
    const tools = createLangChainTools(orchestrator);
    const byName = new Map(tools.map((t) => [t.name, t]));
    const history: BaseMessage[] = [new HumanMessage('Weather in Kyiv?')];
    const openaiTools = tools.map((t) => ({
      type: 'function' as const,
      function: { name: t.name, description: t.description, parameters: t.schema as Record<string, unknown> },
    }));
    const first = await client.chat.completions.create({
      model: 'scripted',
      messages: toOpenAI(history) as never,
      tools: openaiTools,
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('no tool call');
    const aiMessage = new AIMessage({
      content: '',
      tool_calls: [
        {
          id: call.id,
          name: call.function.name,
          args: JSON.parse(call.function.arguments),
          type: 'tool_call',
        },
      ],
    });
    const toolCall = aiMessage.tool_calls?.[0];
    if (!toolCall) throw new Error('no tool call');
    const toolMessage: ToolMessage = await (byName.get(toolCall.name) as (typeof tools)[number]).invoke(
      toolCall,
    );
    history.push(aiMessage, toolMessage);
    const second = await client.chat.completions.create({
      model: 'scripted',
      messages: toOpenAI(history) as never,
    });

    expect(toolMessage).toBeInstanceOf(ToolMessage);
    expect(toolMessage.tool_call_id).toBe('call_7');
    expect(toolMessage.artifact).toMatchObject({ ok: true });
    expect(second.choices[0]?.message.content).toBe('answer: Kyiv: sunny for 1 day(s), imperial');
    expect(calls).toEqual([{ tool: 'forecast', args: { city: 'Kyiv', units: 'imperial' } }]);
    await orchestrator.close();
  });

  it('passes the run signal to the orchestrator: the tool sees it abort and answers CANCELLED', async () => {
    const { orchestrator, calls } = await createTestOrchestrator();
    const [slow] = createLangChainTools(orchestrator, { tools: ['media__slow'] });
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => {
      const off = orchestrator.on('tool_started', () => {
        off();
        resolve();
      });
    });
    const run = slow?.invoke({}, { signal: controller.signal });
    await started;
    controller.abort();
    expect(await run).toMatch(/^ERROR CANCELLED: /);
    await orchestrator.close();
    expect(calls).toEqual([{ tool: 'slow', args: {}, aborted: true }]);
  });
});
