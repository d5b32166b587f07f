// Per-call overhead of the full pipeline against a direct call and LangChain's tool().invoke.
// Each variant is measured alone, in a fresh process (so one variant's garbage and JIT state
// never lands in another's timings), in alternating passes (so a load that comes and goes on a
// shared machine is spread over all of them).
// Run: pnpm --filter @toolplane/orchestrator bench
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { result, summarize, timeAsync } from '@toolplane/bench';
import { PROVIDER_SPEC_VERSION, type ToolProvider, createToolContext, ok } from '@toolplane/core';

const VARIANTS = ['direct', 'pipeline', 'langchain', 'langchain-toolcall', 'pqueue'] as const;
type Variant = (typeof VARIANTS)[number];
const PASSES = Number(process.env.BENCH_PASSES ?? 7);

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
const args = { n: 1 };

/** Runs one variant in this process and prints its median per-call time as JSON. */
async function measure(variant: Variant): Promise<void> {
  let fn: () => Promise<unknown>;
  let batch = 2000;
  if (variant === 'direct') {
    const ctx = createToolContext();
    fn = () => provider.execute('noop', args, ctx);
  } else if (variant === 'pipeline') {
    const { createOrchestrator } = await import('@toolplane/orchestrator');
    const orchestrator = createOrchestrator({ queues: { bench: { maxConcurrency: 64 } }, timeoutMs: 30_000 });
    orchestrator.register(provider);
    await orchestrator.warmup();
    orchestrator.on('tool_started', () => {});
    orchestrator.on('tool_finished', () => {});
    const check = await orchestrator.call('bench__noop', args);
    if (!check.ok) throw new Error(`pipeline broken: ${check.error.message}`);
    fn = () => orchestrator.call('bench__noop', args);
  } else if (variant === 'langchain' || variant === 'langchain-toolcall') {
    const { tool } = await import('@langchain/core/tools');
    const { z } = await import('zod');
    const lc = tool(async ({ n }: { n: number }) => String(n), {
      name: 'noop',
      description: 'Does nothing.',
      schema: z.object({ n: z.number() }),
    });
    // An agent hands LangChain the model's tool call and gets a ToolMessage back (ToolNode does
    // this); plain arguments are the cheapest way in. Both are measured.
    const toolCall = { name: 'noop', args, id: 'call_1', type: 'tool_call' as const };
    fn = variant === 'langchain' ? () => lc.invoke(args) : () => lc.invoke(toolCall);
    batch = 300;
  } else {
    const { default: PQueue } = await import('p-queue');
    const queue = new PQueue({ concurrency: 64 });
    const ctx = createToolContext();
    fn = () => queue.add(() => provider.execute('noop', args, ctx));
  }
  // every variant gets about 20,000 warm-up calls before it is timed, whatever its batch size
  const stats = await timeAsync(fn, { rounds: 30, batch, warmupRounds: Math.ceil(20_000 / batch) });
  console.log(JSON.stringify({ variant, medianUs: stats.medianUs }));
}

const child = process.argv[2] as Variant | undefined;
if (child) {
  await measure(child);
} else {
  const samples: Record<Variant, number[]> = {
    direct: [],
    pipeline: [],
    langchain: [],
    'langchain-toolcall': [],
    pqueue: [],
  };
  const self = fileURLToPath(import.meta.url);
  for (let pass = 0; pass < PASSES; pass++) {
    for (const variant of VARIANTS) {
      const run = spawnSync(process.execPath, [...process.execArgv, self, variant], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`variant ${variant} failed: ${run.stderr}`);
      const line = run.stdout.trim().split('\n').at(-1) ?? '';
      samples[variant].push((JSON.parse(line) as { medianUs: number }).medianUs);
    }
  }
  const [direct, pipeline, langchain, langchainToolCall, pqueue] = VARIANTS.map((variant) =>
    summarize(samples[variant]),
  );
  if (!direct || !pipeline || !langchain || !langchainToolCall || !pqueue) throw new Error('missing samples');
  const row = (label: string, us: number): void =>
    console.log(
      `${label.padEnd(22)}${us.toFixed(3)} us/call  ${Math.round(1e6 / us).toLocaleString()} calls/s`,
    );
  row('direct call', direct.medianUs);
  row('orchestrator.call', pipeline.medianUs);
  row('langchain tool.invoke', langchain.medianUs);
  row('  with a ToolCall', langchainToolCall.medianUs);
  row('p-queue add (ref.)', pqueue.medianUs);
  result('orchestrator/noop-call-overhead', pipeline.medianUs - direct.medianUs, 'us', {
    baseline: 'direct-call',
    ratio: pipeline.medianUs / direct.medianUs,
  });
  result('orchestrator/noop-call', pipeline.medianUs, 'us', {
    baseline: 'langchain-tool-invoke',
    ratio: langchain.medianUs / pipeline.medianUs,
  });
  result('orchestrator/noop-call-vs-toolcall', pipeline.medianUs, 'us', {
    baseline: 'langchain-tool-invoke-toolcall',
    ratio: langchainToolCall.medianUs / pipeline.medianUs,
  });
  result('orchestrator/noop-calls-per-second', 1e6 / pipeline.medianUs, 'calls/s');
  result('orchestrator/p-queue-add-reference', pqueue.medianUs, 'us');
}
