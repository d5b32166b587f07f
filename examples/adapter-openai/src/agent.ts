// An agent loop on the OpenAI SDK: toolplane's tools as strict function tools, the model's tool
// calls run through the orchestrator. Any OpenAI-compatible endpoint: OPENAI_BASE_URL, OPENAI_API_KEY.
import { createOpenAIChatTools } from '@toolplane/adapters/openai';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { exampleOrchestrator } from './tools.js';

const orchestrator = await exampleOrchestrator();
const client = new OpenAI(); // reads OPENAI_BASE_URL and OPENAI_API_KEY
const toolset = createOpenAIChatTools(orchestrator, { principal: { userId: 'example' } });
const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Oslo?' }];

for (let turn = 0; turn < 5; turn++) {
  const reply = await client.chat.completions.create({
    model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini',
    messages,
    tools: toolset.tools,
  });
  const message = reply.choices[0]?.message;
  if (!message) break;
  messages.push(message);
  if (!message.tool_calls?.length) {
    console.log(message.content);
    break;
  }
  messages.push(...(await toolset.handleToolCalls(message)));
}
await orchestrator.close();
