// 10,000 registered tools: warmup, listTools and resolving every name.
// Run: pnpm --filter @toolplane/orchestrator bench
import { performance } from 'node:perf_hooks';
import { result } from '@toolplane/bench';
import { PROVIDER_SPEC_VERSION, type ToolSpec, ok } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';

const COUNT = 10_000;
const specs: ToolSpec[] = Array.from({ length: COUNT }, (_, i) => ({
  name: `tool.${i % 97}-${i}`,
  description: `Tool number ${i}.`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
}));
const orchestrator = createOrchestrator({ internalTools: false });
orchestrator.register({
  specificationVersion: PROVIDER_SPEC_VERSION,
  kind: 'local',
  namespace: 'many',
  listTools: () => specs,
  execute: async () => ok(''),
});

let start = performance.now();
await orchestrator.warmup();
const warmupMs = performance.now() - start;
start = performance.now();
const listed = orchestrator.listTools();
const listMs = performance.now() - start;
start = performance.now();
let found = 0;
for (const spec of listed) if (orchestrator.hasTool(spec.name)) found++;
const resolveUs = ((performance.now() - start) * 1000) / listed.length;
start = performance.now();
const sloppy = orchestrator.hasTool('many.tool_5-5');
const slowResolveUs = (performance.now() - start) * 1000;
if (found !== COUNT || !sloppy) throw new Error(`resolved ${found} of ${COUNT}`);
console.log(
  `${COUNT} tools: warmup (names, collisions, map) ${warmupMs.toFixed(1)} ms, listTools ${listMs.toFixed(2)} ms, resolve ${resolveUs.toFixed(3)} us/name`,
);
result('orchestrator/registry-10k-warmup', warmupMs, 'ms');
result('orchestrator/registry-10k-list', listMs, 'ms');
result('orchestrator/registry-10k-resolve', resolveUs, 'us');
result('orchestrator/registry-10k-forgiving-resolve', slowResolveUs, 'us');
await orchestrator.close();
