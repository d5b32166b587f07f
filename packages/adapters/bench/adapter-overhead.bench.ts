// The per-call cost an adapter adds over orchestrator.call: a Chat Completions tool call (JSON
// arguments parsed, strict nulls mapped back, the tool message built) through
// createOpenAIChatTools, against calling the orchestrator with the parsed arguments directly.
import { result, timeInterleaved } from '@toolplane/bench';
import { createLocalProvider, defineTool, ok } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { z } from 'zod';
import { createAnthropicTools } from '../src/anthropic/index.js';
import { createOpenAIChatTools } from '../src/openai/index.js';

const noop = defineTool({
  name: 'noop',
  description: 'Does nothing.',
  input: z.object({ q: z.string(), limit: z.number().optional() }),
  sideEffect: 'none',
  execute: () => ok('done'),
});
const orchestrator = createOrchestrator();
orchestrator.register(createLocalProvider({ namespace: 't', tools: [noop] }));
await orchestrator.warmup();
const chat = createOpenAIChatTools(orchestrator);
const anthropic = createAnthropicTools(orchestrator);
const message = {
  tool_calls: [
    {
      id: 'c1',
      type: 'function' as const,
      function: { name: 't__noop', arguments: '{"q":"x","limit":null}' },
    },
  ],
};
const toolUse = {
  content: [
    {
      type: 'tool_use' as const,
      id: 'u1',
      name: 't__noop',
      input: { q: 'x' },
      caller: { type: 'direct' as const },
    },
  ],
};
const stats = await timeInterleaved(
  {
    direct: { fn: () => orchestrator.call('t__noop', { q: 'x' }), batch: 2000 },
    openai: { fn: () => chat.handleToolCalls(message), batch: 2000 },
    anthropic: { fn: () => anthropic.handleToolUse(toolUse as never), batch: 2000 },
  },
  { rounds: 15, warmupRounds: 3 },
);
const direct = stats.direct?.medianUs ?? Number.NaN;
for (const name of ['openai', 'anthropic'] as const) {
  const us = stats[name]?.medianUs ?? Number.NaN;
  console.log(`${name}: ${us.toFixed(2)} us/call, orchestrator.call ${direct.toFixed(2)} us/call`);
  result(`adapters/${name}-adapter-overhead`, us - direct, 'us', {
    baseline: 'orchestrator-call',
    ratio: us / direct,
  });
}
await orchestrator.close();
