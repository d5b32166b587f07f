// Benchmarks of @toolplane/subagents against the scripted model on loopback:
// 1. spawn-to-first-model-request: from `manager.spawn()` to the model server receiving the
//    child's first request, against a bare `fetch()` of the same body (the HTTP round trip's
//    sending half, measured the same way); the difference is what the package adds.
// 2. 100 concurrent children (one tool call and a report each): wall time and heap per child.
import { performance } from 'node:perf_hooks';
import { median, result } from '@toolplane/bench';
import { createLocalProvider, createToolContext, defineTool, ok } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { z } from 'zod';
import { createOpenAIRunner, createSubagents } from '../src/index.js';
import { startScriptedModel } from '../src/testing/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
let arrived = 0;
const model = await startScriptedModel({
  respond: (request) => {
    arrived = performance.now();
    const turn = request.messages.filter((m) => m.role === 'assistant').length;
    if (request.model === 'wide' && turn === 0)
      return { toolCalls: [{ name: 't__echo', arguments: { text: 'x' } }], delayMs: 100 };
    return {
      toolCalls: [
        { name: 'agent__final_report', arguments: { status: 'success', format: 'text', content: 'ok' } },
      ],
    };
  },
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
const manager = createSubagents({
  orchestrator,
  runner: createOpenAIRunner({ baseUrl: model.url, env: {}, maxRetries: 0 }),
  agents: [
    { name: 'quick', description: 'answers at once', systemPrompt: 'Report.', model: 'quick' },
    {
      name: 'wide',
      description: 'one tool call, then a report',
      systemPrompt: 'Echo, then report.',
      model: 'wide',
    },
  ],
  limits: { maxConcurrent: 100, maxChildrenPerAgent: 100 },
});
await orchestrator.warmup();

// 1. spawn-to-first-request overhead
const body = JSON.stringify({
  model: 'quick',
  stream: true,
  messages: [
    { role: 'system', content: 'Report.' },
    { role: 'user', content: 'go' },
  ],
  tools: orchestrator.listTools().map((spec) => ({
    type: 'function',
    function: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
  })),
});
const parent = createToolContext({ session: { id: 'bench' } });
const raw: number[] = [];
const spawned: number[] = [];
for (let i = 0; i < 330; i++) {
  let start = performance.now();
  const response = await fetch(`${model.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const sent = arrived - start;
  await response.text();
  start = performance.now();
  const record = manager.spawn({ agent: 'quick', task: 'go', parent, background: true });
  await record.done;
  if (i >= 30) {
    raw.push(sent);
    spawned.push(arrived - start);
  }
  manager.inbox('bench').take();
}
const rawMs = median(raw);
const spawnMs = median(spawned);
console.log(`fetch to arrival      ${(rawMs * 1000).toFixed(0)} us (median of ${raw.length})`);
console.log(`spawn to arrival      ${(spawnMs * 1000).toFixed(0)} us`);
result('subagents/spawn-to-first-request-overhead', spawnMs - rawMs, 'ms', {
  baseline: 'fetch-to-arrival',
  ratio: spawnMs / rawMs,
});

// 2. 100 concurrent children
gc?.();
const before = process.memoryUsage().heapUsed;
let peak = before;
const start = performance.now();
const records = Array.from({ length: 100 }, (_, i) =>
  manager.spawn({ agent: 'wide', task: `job ${i}`, parent, background: true }),
);
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}, 5);
const outcomes = await Promise.all(records.map((record) => record.done));
clearInterval(sampler);
const wallMs = performance.now() - start;
const completed = outcomes.filter((outcome) => outcome?.status === 'completed').length;
console.log(
  `100 children: ${completed} completed in ${wallMs.toFixed(0)} ms (each: 2 model turns, one 100 ms delayed, 1 tool call)`,
);
result('subagents/100-children-wall-time', wallMs, 'ms');
result('subagents/heap-per-running-child', (peak - before) / 1024 / 100, 'KiB');

await manager.close();
await orchestrator.close();
await model.close();
