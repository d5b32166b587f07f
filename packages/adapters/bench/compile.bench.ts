// Compiling the 1,223 tools of the GitHub REST import to every dialect, against a
// structuredClone of the same schemas (the floor of any rewrite that copies them).
import { performance } from 'node:perf_hooks';
import { median, result } from '@toolplane/bench';
import { DIALECTS, compileTools } from '../src/index.js';
import { githubTools } from './github-tools.js';

const tools = await githubTools();
const ROUNDS = 7;
const time = (fn: () => unknown): number => {
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    fn();
    samples.push(performance.now() - started);
  }
  return median(samples);
};
const cloneMs = time(() => tools.map((t) => structuredClone(t.inputSchema)));
let totalMs = 0;
for (const dialect of DIALECTS) {
  const ms = time(() => compileTools(tools, dialect));
  totalMs += ms;
  const { counts } = compileTools(tools, dialect).report;
  console.log(`${dialect}: ${tools.length} tools in ${ms.toFixed(1)} ms; ${JSON.stringify(counts)}`);
  result(`adapters/compile-github-${dialect}`, ms, 'ms', {
    baseline: 'structured-clone',
    ratio: ms / cloneMs,
  });
}
result('adapters/compile-github-all-dialects', totalMs, 'ms');
