// Benchmark: the same tool on the same kind of stdio server, called through the raw SDK
// Client.callTool and through the orchestrator + this provider (and the provider alone),
// sequentially (after a warm-up, in interleaved rounds, every latency pooled) and with 16 calls in flight; then the time to start 20 stdio servers in
// parallel, and how fast a call in flight fails when its server is killed.
// Run: pnpm --filter @toolplane/mcp-provider bench
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type Stats, result, summarize, timeEach } from '@toolplane/bench';
import { createToolContext } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { createMcpProvider, startMcpProviders } from '../src/index.js';

const server = fileURLToPath(new URL('../test/fixtures/server.mjs', import.meta.url));
const config = { type: 'stdio' as const, command: process.execPath, args: [server], healthIntervalMs: 0 };

/**
 * Where the scheduler puts a client and its server decides a pipe round trip more than the code
 * does (same core, or a wake-up across cores): three variants with three server processes would
 * each get their own luck. With `taskset` and two CPUs or more, the latency and throughput
 * runs pin this process to CPU 0 and every server to CPU 1, so all variants get the same
 * placement (BENCH_PIN=0 turns it off).
 */
function pinning(): { command: string; args: string[] } | undefined {
  if (process.env.BENCH_PIN === '0' || availableParallelism() < 2) return undefined;
  const self = spawnSync('taskset', ['-p', '-c', '0', String(process.pid)], { encoding: 'utf8' });
  if (self.status !== 0) return undefined;
  return { command: 'taskset', args: ['-c', '1', process.execPath, server] };
}
const pinned = pinning();
const callConfig = pinned ? { ...config, ...pinned } : config;
const serverCommand = pinned ?? { command: process.execPath, args: [server] };
const SEQUENTIAL = Number(process.env.BENCH_CALLS ?? 4000);
const WARMUP_CALLS = Number(process.env.BENCH_WARMUP_CALLS ?? 5000);
const PARALLEL_TOTAL = Number(process.env.BENCH_PARALLEL_CALLS ?? 4000);
const IN_FLIGHT = 16;

async function throughput(call: () => Promise<unknown>, total: number, inFlight: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        next++;
        await call();
      }
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

function line(label: string, stats: Stats): void {
  console.log(
    `${label.padEnd(28)} p50 ${(stats.medianUs / 1000).toFixed(3)} ms  p99 ${(stats.p99Us / 1000).toFixed(3)} ms`,
  );
}

async function main(): Promise<void> {
  const raw = new Client({ name: 'bench', version: '1' });
  console.log(
    pinned
      ? 'pinned: this process on CPU 0, the servers on CPU 1'
      : 'not pinned (no taskset, one CPU, or BENCH_PIN=0)',
  );
  await raw.connect(new StdioClientTransport(serverCommand));
  const rawCall = async (): Promise<void> => {
    const response = await raw.callTool({ name: 'echo', arguments: { message: 'ping' } });
    if (response.isError) throw new Error('raw call failed');
  };

  const provider = createMcpProvider('direct', callConfig);
  await provider.start?.(AbortSignal.timeout(60_000));
  const providerCall = async (): Promise<void> => {
    const outcome = await provider.execute('echo', { message: 'ping' }, createToolContext());
    if (!outcome.ok) throw new Error(outcome.error.message);
  };

  const orchestrator = createOrchestrator();
  orchestrator.register(createMcpProvider('bench', callConfig));
  await orchestrator.warmup();
  const orchestratorCall = async (): Promise<void> => {
    const outcome = await orchestrator.call('bench__echo', { message: 'ping' });
    if (!outcome.ok) throw new Error(outcome.error.message);
  };

  // Warm all three up (the JIT settles after some thousands of calls), then interleave rounds so
  // machine noise hits all three alike; every call's latency goes into its variant's pool.
  const variants = { raw: rawCall, provider: providerCall, orchestrator: orchestratorCall } as const;
  for (const call of Object.values(variants)) await timeEach(call, WARMUP_CALLS, 0);
  const pooled: Record<keyof typeof variants, number[]> = { raw: [], provider: [], orchestrator: [] };
  // this process's CPU (user + system) spent in each variant's timed calls, in microseconds
  const cpu: Record<keyof typeof variants, number> = { raw: 0, provider: 0, orchestrator: 0 };
  const rounds = 20;
  for (let round = 0; round < rounds; round++) {
    for (const [key, call] of Object.entries(variants) as Array<
      [keyof typeof variants, () => Promise<void>]
    >) {
      await timeEach(call, 20, 0); // re-warm after the other variants' rounds
      const cpuBefore = process.cpuUsage();
      for (let i = 0; i < SEQUENTIAL / rounds; i++) {
        const started = performance.now();
        await call();
        pooled[key].push((performance.now() - started) * 1000);
      }
      const used = process.cpuUsage(cpuBefore);
      cpu[key] += used.user + used.system;
    }
  }
  const rawStats = summarize(pooled.raw);
  const providerStats = summarize(pooled.provider);
  const orchestratorStats = summarize(pooled.orchestrator);
  line('raw SDK Client.callTool', rawStats);
  line('provider.execute', providerStats);
  line('orchestrator + provider', orchestratorStats);
  const cpuPerCall = (key: keyof typeof variants): number => cpu[key] / pooled[key].length;
  console.log(
    `client CPU per call: raw ${cpuPerCall('raw').toFixed(0)} us, provider ${cpuPerCall('provider').toFixed(0)} us, orchestrator ${cpuPerCall('orchestrator').toFixed(0)} us`,
  );

  // Throughput in interleaved rounds too; the median round of each counts.
  const rates: Record<'raw' | 'provider' | 'orchestrator', number[]> = {
    raw: [],
    provider: [],
    orchestrator: [],
  };
  for (let round = 0; round < 5; round++) {
    rates.raw.push(await throughput(rawCall, PARALLEL_TOTAL / 5, IN_FLIGHT));
    rates.provider.push(await throughput(providerCall, PARALLEL_TOTAL / 5, IN_FLIGHT));
    rates.orchestrator.push(await throughput(orchestratorCall, PARALLEL_TOTAL / 5, IN_FLIGHT));
  }
  const medianRate = (values: number[]): number =>
    [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;
  const rawThroughput = medianRate(rates.raw);
  const providerThroughput = medianRate(rates.provider);
  const orchestratorThroughput = medianRate(rates.orchestrator);
  console.log(
    `16 in flight: raw ${rawThroughput.toFixed(0)}/s, provider ${providerThroughput.toFixed(0)}/s, orchestrator ${orchestratorThroughput.toFixed(0)}/s`,
  );

  await raw.close();
  await provider.close?.();
  await orchestrator.close();

  // Startup is measured unpinned: 20 servers starting on one CPU would measure that CPU.
  if (pinned) spawnSync('taskset', ['-p', '-c', `0-${availableParallelism() - 1}`, String(process.pid)]);

  // 20 stdio servers started in parallel: raw SDK clients vs providers, alternated, best of 2 each.
  const startRaw = async (): Promise<number> => {
    const started = performance.now();
    const clients = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const client = new Client({ name: 'bench', version: '1' });
        await client.connect(new StdioClientTransport({ command: process.execPath, args: [server] }));
        await client.listTools();
        return client;
      }),
    );
    const elapsed = performance.now() - started;
    await Promise.all(clients.map((client) => client.close()));
    return elapsed;
  };
  let closeMs = Number.POSITIVE_INFINITY;
  const startProviders = async (): Promise<number> => {
    const providers = Array.from({ length: 20 }, (_, index) => createMcpProvider(`s${index}`, config));
    const started = performance.now();
    const outcomes = await startMcpProviders(providers, { concurrency: 20 });
    const elapsed = performance.now() - started;
    if (outcomes.some((outcome) => !outcome.ok)) throw new Error('a server failed to start');
    const closeStart = performance.now();
    await Promise.all(providers.map((each) => each.close?.()));
    closeMs = Math.min(closeMs, performance.now() - closeStart);
    return elapsed;
  };
  const firstRaw = await startRaw();
  const firstProviders = await startProviders();
  const rawStartMs = Math.min(firstRaw, await startRaw());
  const providerStartMs = Math.min(firstProviders, await startProviders());
  console.log(
    `start 20 in parallel: raw SDK ${rawStartMs.toFixed(0)} ms, providers ${providerStartMs.toFixed(0)} ms`,
  );

  // A call in flight when its server is killed with SIGKILL: time until it fails.
  const failureSamples: number[] = [];
  const victim = createMcpProvider('victim', config, {
    restartPolicy: { backoffMs: [0], maxRestarts: 100, crashWindowMs: 60_000, healthyResetMs: 600_000 },
  });
  await victim.start?.(AbortSignal.timeout(60_000));
  for (let i = 0; i < 10; i++) {
    for (let wait = 0; wait < 400 && victim.status().state !== 'ready'; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const pending = victim.execute('hang', {}, createToolContext());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const killedAt = performance.now();
    process.kill(victim.status().pid as number, 'SIGKILL');
    const outcome = await pending;
    if (outcome.ok || outcome.error.code !== 'PROVIDER_UNAVAILABLE')
      throw new Error('expected PROVIDER_UNAVAILABLE');
    failureSamples.push((performance.now() - killedAt) * 1000);
  }
  await victim.close?.();
  const failure = summarize(failureSamples);

  result('mcp-provider/call-p50-sequential', orchestratorStats.medianUs / 1000, 'ms', {
    baseline: 'raw-sdk-callTool',
    ratio: orchestratorStats.medianUs / rawStats.medianUs,
  });
  result('mcp-provider/call-p99-sequential', orchestratorStats.p99Us / 1000, 'ms', {
    baseline: 'raw-sdk-callTool',
    ratio: orchestratorStats.p99Us / rawStats.p99Us,
  });
  result('mcp-provider/provider-only-p50-sequential', providerStats.medianUs / 1000, 'ms', {
    baseline: 'raw-sdk-callTool',
    ratio: providerStats.medianUs / rawStats.medianUs,
  });
  result('mcp-provider/client-cpu-per-call', cpuPerCall('orchestrator'), 'us', {
    baseline: 'raw-sdk-callTool',
    ratio: cpuPerCall('orchestrator') / cpuPerCall('raw'),
  });
  result('mcp-provider/throughput-16-in-flight', orchestratorThroughput, 'calls/s', {
    baseline: 'raw-sdk-callTool',
    ratio: orchestratorThroughput / rawThroughput,
  });
  result('mcp-provider/provider-only-throughput-16-in-flight', providerThroughput, 'calls/s', {
    baseline: 'raw-sdk-callTool',
    ratio: providerThroughput / rawThroughput,
  });
  result('mcp-provider/start-20-stdio-servers', providerStartMs, 'ms', {
    baseline: 'raw-sdk-connect',
    ratio: providerStartMs / rawStartMs,
  });
  result('mcp-provider/close-20-stdio-servers', closeMs, 'ms');
  result('mcp-provider/in-flight-failure-after-sigkill-p99', failure.p99Us / 1000, 'ms');
}

await main();
