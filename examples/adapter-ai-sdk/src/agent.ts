// generateText of the Vercel AI SDK with toolplane's tools: two lines hand them over, the abort
// signal reaches the tools, and tools that change state wait for an approval.
import { createOpenAI } from '@ai-sdk/openai';
import { createAISDKTools } from '@toolplane/adapters/ai-sdk';
import { generateText, stepCountIs } from 'ai';
import { exampleOrchestrator } from './tools.js';

const orchestrator = await exampleOrchestrator();
const openai = createOpenAI({
  ...(process.env.OPENAI_BASE_URL ? { baseURL: process.env.OPENAI_BASE_URL } : {}),
});
const tools = createAISDKTools(orchestrator, {
  needsApproval: (tool) => tool.sideEffect === 'mutating' || tool.annotations?.destructiveHint === true,
});
const { text } = await generateText({
  model: openai.chat(process.env.OPENAI_MODEL ?? 'gpt-4.1-mini'),
  tools,
  stopWhen: stepCountIs(5),
  abortSignal: AbortSignal.timeout(60_000),
  prompt: 'What is the weather in Oslo?',
});
console.log(text);
await orchestrator.close();
