// Benchmarks of @toolplane/rest-openapi: importing GitHub's REST description (time and peak
// memory, in fresh processes) and per-call overhead against a raw undici request to the same
// loopback server. Run: pnpm --filter @toolplane/rest-openapi bench
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, percentile, result } from '@toolplane/bench';
import { createToolContext } from '@toolplane/core';
import { Agent, request } from 'undici';
import { createRestProvider } from '../src/index.js';

const here = import.meta.dirname;
const tsx = ['--import', 'tsx'];

function importRun(baseline: boolean): { elapsedMs: number; peakRssMb: number; tools: number } {
  const args = [...tsx, join(here, 'import-github.ts'), ...(baseline ? ['--baseline'] : [])];
  const output = execFileSync(process.execPath, args, { encoding: 'utf8', cwd: join(here, '..') });
  return JSON.parse(output.trim().split('\n').at(-1) as string);
}

async function importBenchmark(): Promise<void> {
  const runs = 5;
  const imports: ReturnType<typeof importRun>[] = [];
  const baselines: ReturnType<typeof importRun>[] = [];
  for (let i = 0; i < runs; i++) {
    baselines.push(importRun(true));
    imports.push(importRun(false));
  }
  const importMs = median(imports.map((run) => run.elapsedMs));
  const parseMs = median(baselines.map((run) => run.elapsedMs));
  const importRss = Math.max(...imports.map((run) => run.peakRssMb));
  const parseRss = Math.max(...baselines.map((run) => run.peakRssMb));
  console.log(
    `GitHub description: ${imports[0]?.tools} tools; import median ${importMs.toFixed(0)} ms over ${runs} fresh processes (JSON.parse alone ${parseMs.toFixed(0)} ms); peak RSS ${importRss.toFixed(0)} MB (JSON.parse alone ${parseRss.toFixed(0)} MB)`,
  );
  result('rest-openapi/github-import-time', importMs, 'ms', {
    baseline: 'json-parse',
    ratio: importMs / parseMs,
  });
  result('rest-openapi/github-import-peak-rss', importRss, 'MB', {
    baseline: 'json-parse',
    ratio: importRss / parseRss,
  });
}

async function startServer(): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, [...tsx, join(here, 'loopback-server.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  return { child, origin: `http://127.0.0.1:${chunk.toString().trim()}` };
}

async function callBenchmark(): Promise<void> {
  const { child, origin } = await startServer();
  const agent = new Agent({ connections: 16, keepAliveTimeout: 60_000 });
  const rest = createRestProvider({
    namespace: 'bench',
    env: { BENCH_TOKEN: 'not-a-secret-bench-token' },
    tools: {
      get_item: {
        description: 'Gets an item.',
        method: 'GET',
        url: `${origin}/items/{id}`,
        headers: { authorization: 'Bearer ${BENCH_TOKEN}' },
        parametersSchema: {
          type: 'object',
          properties: { id: { type: 'string' }, q: { type: 'string' }, limit: { type: 'integer' } },
          required: ['id'],
        },
      },
    },
  });
  const ctx = createToolContext();
  const headers = { authorization: 'Bearer not-a-secret-bench-token', accept: 'application/json' };
  // the leanest raw undici call: the dispatcher API with origin and path given separately
  const lean = async (): Promise<void> => {
    const response = await agent.request({
      origin,
      path: '/items/item-1?q=x&limit=10',
      method: 'GET',
      headers,
    });
    JSON.parse(await response.body.text());
  };
  // what most code writes: undici.request with a URL string (parsed on every call)
  const url = async (): Promise<void> => {
    const response = await request(`${origin}/items/item-1?q=x&limit=10`, { dispatcher: agent, headers });
    JSON.parse(await response.body.text());
  };
  const tool = async (): Promise<void> => {
    const outcome = await rest.execute('get_item', { id: 'item-1', q: 'x', limit: 10 }, ctx);
    if (!outcome.ok) throw new Error(outcome.error.message);
  };
  const variants = { lean, url, tool };
  const wall: Record<keyof typeof variants, number[]> = { lean: [], url: [], tool: [] };
  const cpu: Record<keyof typeof variants, number> = { lean: 0, url: 0, tool: 0 };
  for (const fn of Object.values(variants)) for (let i = 0; i < 500; i++) await fn();
  // interleave call by call so the load of a shared machine hits every variant alike
  const count = 5000;
  for (let i = 0; i < count; i++) {
    const order = Object.entries(variants) as [keyof typeof variants, () => Promise<void>][];
    // a different order each round, so no variant always follows the same one
    const shift = i % order.length;
    for (const [name, fn] of [...order.slice(shift), ...order.slice(0, shift)]) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      await fn();
      wall[name].push((performance.now() - start) * 1000);
      const used = process.cpuUsage(cpuStart);
      cpu[name] += used.user + used.system;
    }
  }
  const p50 = (name: keyof typeof variants): number => median(wall[name]);
  const p99 = (name: keyof typeof variants): number =>
    percentile(
      [...wall[name]].sort((a, b) => a - b),
      99,
    );
  const cpuPerCall = (name: keyof typeof variants): number => cpu[name] / count;
  console.log(
    `GET over loopback, ${count} calls each, interleaved: p50 wall lean undici ${p50('lean').toFixed(1)} us, undici.request(url) ${p50('url').toFixed(1)} us, REST tool ${p50('tool').toFixed(1)} us; client CPU per call ${cpuPerCall('lean').toFixed(1)} / ${cpuPerCall('url').toFixed(1)} / ${cpuPerCall('tool').toFixed(1)} us`,
  );
  result('rest-openapi/call-p50', p50('tool'), 'us', {
    baseline: 'raw-undici-dispatcher-request',
    ratio: p50('tool') / p50('lean'),
  });
  result('rest-openapi/call-p50-vs-url', p50('tool'), 'us', {
    baseline: 'raw-undici-request-url',
    ratio: p50('tool') / p50('url'),
  });
  result('rest-openapi/call-p99', p99('tool'), 'us', {
    baseline: 'raw-undici-dispatcher-request',
    ratio: p99('tool') / p99('lean'),
  });
  result('rest-openapi/call-cpu', cpuPerCall('tool'), 'us', {
    baseline: 'raw-undici-dispatcher-request',
    ratio: cpuPerCall('tool') / cpuPerCall('lean'),
  });
  result('rest-openapi/call-overhead-p50', p50('tool') - p50('lean'), 'us');
  await rest.close();
  await agent.close();
  child.stdin?.end();
  child.kill();
}

if (!process.argv.includes('--calls-only')) await importBenchmark();
await callBenchmark();
