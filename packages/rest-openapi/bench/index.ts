// Benchmarks of @toolplane/rest-openapi: importing GitHub's REST description (time and peak
// memory, in fresh processes) and per-call overhead against a raw undici request to the same
// loopback server. Run: pnpm --filter @toolplane/rest-openapi bench
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { percentile, result } from '@toolplane/bench';
import { createToolContext } from '@toolplane/core';
import { Agent, request } from 'undici';
import { createRestProvider } from '../src/index.js';

const here = import.meta.dirname;
const tsx = ['--import', 'tsx'];

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

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
  const raw = async (): Promise<void> => {
    const response = await request(`${origin}/items/item-1?q=x&limit=10`, {
      dispatcher: agent,
      headers: { authorization: 'Bearer not-a-secret-bench-token', accept: 'application/json' },
    });
    JSON.parse(await response.body.text());
  };
  const tool = async (): Promise<void> => {
    const outcome = await rest.execute('get_item', { id: 'item-1', q: 'x', limit: 10 }, ctx);
    if (!outcome.ok) throw new Error(outcome.error.message);
  };
  const time = async (fn: () => Promise<void>, count: number, into: number[]): Promise<void> => {
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      await fn();
      into.push((performance.now() - start) * 1000);
    }
  };
  const warm: number[] = [];
  await time(raw, 500, warm);
  await time(tool, 500, warm);
  const rawSamples: number[] = [];
  const toolSamples: number[] = [];
  // alternate blocks so drift on a shared machine hits both sides alike
  for (let block = 0; block < 20; block++) {
    await time(raw, 250, rawSamples);
    await time(tool, 250, toolSamples);
  }
  const rawP50 = median(rawSamples);
  const toolP50 = median(toolSamples);
  const rawP99 = percentile(
    [...rawSamples].sort((a, b) => a - b),
    99,
  );
  const toolP99 = percentile(
    [...toolSamples].sort((a, b) => a - b),
    99,
  );
  console.log(
    `GET call over loopback: raw undici p50 ${rawP50.toFixed(1)} us, p99 ${rawP99.toFixed(1)} us; REST tool p50 ${toolP50.toFixed(1)} us, p99 ${toolP99.toFixed(1)} us; added at p50 ${(toolP50 - rawP50).toFixed(1)} us (${(((toolP50 - rawP50) / rawP50) * 100).toFixed(1)}%)`,
  );
  result('rest-openapi/call-p50', toolP50, 'us', { baseline: 'raw-undici-request', ratio: toolP50 / rawP50 });
  result('rest-openapi/call-p99', toolP99, 'us', { baseline: 'raw-undici-request', ratio: toolP99 / rawP99 });
  result('rest-openapi/call-overhead-p50', toolP50 - rawP50, 'us');
  await rest.close();
  await agent.close();
  child.stdin?.end();
  child.kill();
}

if (!process.argv.includes('--calls-only')) await importBenchmark();
await callBenchmark();
