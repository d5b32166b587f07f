// Child process of the benchmark: imports GitHub's REST description once and prints its figures.
// Run with `--baseline` to only read and JSON.parse the file (the floor any importer pays).
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { importOpenApi } from '../src/index.js';
import { GITHUB_DESCRIPTION } from '../test/helpers/examples.js';

const baseline = process.argv.includes('--baseline');
const start = performance.now();
let tools = 0;
if (baseline) {
  const document = JSON.parse(await readFile(GITHUB_DESCRIPTION, 'utf8')) as {
    paths: Record<string, unknown>;
  };
  tools = Object.keys(document.paths).length;
} else {
  const result = await importOpenApi(GITHUB_DESCRIPTION, { namespace: 'github' });
  tools = Object.keys(result.tools).length;
}
const elapsedMs = performance.now() - start;
// maxRSS is in kilobytes
console.log(JSON.stringify({ elapsedMs, peakRssMb: process.resourceUsage().maxRSS / 1024, tools }));
