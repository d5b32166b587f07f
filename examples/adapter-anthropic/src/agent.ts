// An agent loop on the Anthropic SDK: tool_use blocks run through toolplane, tool_result blocks
// (images and errors included) go back. ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL for a proxy.
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';
import { createAnthropicTools } from '@toolplane/adapters/anthropic';
import { exampleOrchestrator } from './tools.js';

const orchestrator = await exampleOrchestrator();
const client = new Anthropic();
const toolset = createAnthropicTools(orchestrator);
const messages: MessageParam[] = [{ role: 'user', content: 'What is the weather in Oslo?' }];

for (let turn = 0; turn < 5; turn++) {
  const reply = await client.messages.create({
    model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages,
    tools: toolset.tools,
  });
  messages.push({ role: 'assistant', content: reply.content });
  if (reply.stop_reason !== 'tool_use') {
    console.log(reply.content.map((block) => (block.type === 'text' ? block.text : '')).join(''));
    break;
  }
  messages.push({ role: 'user', content: await toolset.handleToolUse(reply) });
}
await orchestrator.close();
