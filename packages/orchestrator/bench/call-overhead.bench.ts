// Per-call overhead of the full pipeline against a direct call and LangChain's tool().invoke.
// Run: pnpm --filter @toolplane/orchestrator bench
import { tool as langchainTool } from '@langchain/core/tools';
import { type Stats, result, summarize, timeAsync } from '@toolplane/bench';
import { PROVIDER_SPEC_VERSION, type ToolProvider, createToolContext, ok } from '@toolplane/core';
import PQueue from 'p-queue';
import { z } from 'zod';
import { createOrchestrator } from '@toolplane/orchestrator';

const answer = ok('');
const provider: ToolProvider = {
  specificationVersion: PROVIDER_SPEC_VERSION,
  kind: 'local',
  namespace: 'bench',
  listTools: () => [
    {
      name: 'noop',
      description: 'Does nothing.',
      inputSchema: {
        type: 'object',
        properties: { n: { type: 'number' } },
        required: ['n'],
        additionalProperties: false,
      },
      sideEffect: 'none',
      queue: 'bench',
    },
  ],
  execute: async () => answer,
};

const orchestrator = createOrchestrator({ queues: { bench: { maxConcurrency: 64 } }, timeoutMs: 30_000 });
orchestrator.register(provider);
await orchestrator.warmup();
let finished = 0;
orchestrator.on('tool_started', () => {});
orchestrator.on('tool_finished', () => {
  finished++;
});

const ctx = createToolContext();
const args = { n: 1 };
const check = await orchestrator.call('bench__noop', args);
if (!check.ok) throw new Error(`pipeline broken: ${check.error.message}`);

const lc = langchainTool(async ({ n }: { n: number }) => String(n), {
  name: 'noop',
  description: 'Does nothing.',
  schema: z.object({ n: z.number() }),
});
const queue = new PQueue({ concurrency: 64 });

// three passes of blocks (direct, pipeline, langchain, p-queue), so a load that comes and goes on a
// shared machine is spread over every variant; each block is long enough for a stable median
const samples: Record<'direct' | 'pipeline' | 'langchain' | 'pqueue', number[]> = {
  direct: [],
  pipeline: [],
  langchain: [],
  pqueue: [],
};
const block = async (
  name: keyof typeof samples,
  fn: () => Promise<unknown>,
  batch: number,
): Promise<void> => {
  const stats: Stats = await timeAsync(fn, { rounds: 15, batch, warmupRounds: 3 });
  samples[name].push(stats.medianUs);
};
for (let pass = 0; pass < 3; pass++) {
  await block('direct', () => provider.execute('noop', args, ctx), 2000);
  await block('pipeline', () => orchestrator.call('bench__noop', args), 2000);
  await block('langchain', () => lc.invoke(args), 300);
  await block('pqueue', () => queue.add(() => provider.execute('noop', args, ctx)), 2000);
}
const direct = summarize(samples.direct);
const pipeline = summarize(samples.pipeline);
const viaLangchain = summarize(samples.langchain);
const pqueueAdd = summarize(samples.pqueue);
const overhead = pipeline.medianUs - direct.medianUs;
console.log(
  `direct call           ${direct.medianUs.toFixed(3)} us/call  ${Math.round(direct.opsPerSecond).toLocaleString()} calls/s`,
);
console.log(
  `orchestrator.call     ${pipeline.medianUs.toFixed(3)} us/call  ${Math.round(pipeline.opsPerSecond).toLocaleString()} calls/s`,
);
console.log(
  `langchain tool.invoke ${viaLangchain.medianUs.toFixed(3)} us/call  ${Math.round(viaLangchain.opsPerSecond).toLocaleString()} calls/s`,
);
console.log(`p-queue add (ref.)    ${pqueueAdd.medianUs.toFixed(3)} us/call`);
console.log(`events seen: ${finished.toLocaleString()} tool_finished`);
result('orchestrator/noop-call-overhead', overhead, 'us', {
  baseline: 'direct-call',
  ratio: pipeline.medianUs / direct.medianUs,
});
result('orchestrator/noop-call', pipeline.medianUs, 'us', {
  baseline: 'langchain-tool-invoke',
  ratio: viaLangchain.medianUs / pipeline.medianUs,
});
result('orchestrator/noop-calls-per-second', pipeline.opsPerSecond, 'calls/s');
result('orchestrator/p-queue-add-reference', pqueueAdd.medianUs, 'us');
await orchestrator.close();
