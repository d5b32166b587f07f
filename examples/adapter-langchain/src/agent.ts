// toolplane's tools as LangChain StructuredTools: each tool call of the model is invoked as a
// ToolCall and answers a ToolMessage (the full ToolResult is its artifact).
import { AIMessage } from '@langchain/core/messages';
import { createLangChainTools } from '@toolplane/adapters/langchain';
import OpenAI from 'openai';
import { exampleOrchestrator } from './tools.js';

const orchestrator = await exampleOrchestrator();
const tools = createLangChainTools(orchestrator);
const client = new OpenAI();
const reply = await client.chat.completions.create({
  model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini',
  messages: [{ role: 'user', content: 'What is the weather in Oslo?' }],
  tools: tools.map((t) => ({
    type: 'function' as const,
    function: { name: t.name, description: t.description, parameters: t.schema as Record<string, unknown> },
  })),
});
const calls = (reply.choices[0]?.message.tool_calls ?? []).flatMap((call) =>
  call.type === 'function'
    ? [
        {
          id: call.id,
          name: call.function.name,
          args: JSON.parse(call.function.arguments),
          type: 'tool_call' as const,
        },
      ]
    : [],
);
const message = new AIMessage({ content: '', tool_calls: calls });
for (const call of message.tool_calls ?? []) {
  const tool = tools.find((t) => t.name === call.name);
  if (tool) console.log((await tool.invoke(call)).content);
}
await orchestrator.close();
