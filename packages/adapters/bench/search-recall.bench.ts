// Search quality of tool_search: recall@5 of 50 hand-written queries over the 1,223 tools of
// the GitHub REST import (a query counts when one of its tools is among the first five).
import { performance } from 'node:perf_hooks';
import { result } from '@toolplane/bench';
import { createToolIndex } from '../src/index.js';
import { githubTools } from './github-tools.js';
import { SEARCH_QUERIES } from './search-queries.js';

const tools = await githubTools();
const names = new Set(tools.map((t) => t.name));
for (const { expect } of SEARCH_QUERIES)
  for (const name of expect) if (!names.has(`github__${name}`)) throw new Error(`no tool github__${name}`);

let started = performance.now();
const index = createToolIndex(tools);
const buildMs = performance.now() - started;
let hits = 0;
let firstHits = 0;
started = performance.now();
for (const { query, expect } of SEARCH_QUERIES) {
  const found = index.search(query, 5).map((h) => h.id.replace(/^github__/, ''));
  if (found.some((name) => expect.includes(name))) hits++;
  else console.log(`miss: ${query} -> ${found.join(', ')}`);
  if (expect.includes(found[0] ?? '')) firstHits++;
}
const queryUs = ((performance.now() - started) * 1000) / SEARCH_QUERIES.length;
console.log(`${tools.length} tools, ${SEARCH_QUERIES.length} queries`);
result('adapters/tool-search-recall-at-5', hits / SEARCH_QUERIES.length, 'ratio');
result('adapters/tool-search-recall-at-1', firstHits / SEARCH_QUERIES.length, 'ratio');
result('adapters/tool-search-index-build', buildMs, 'ms');
result('adapters/tool-search-query', queryUs, 'us');
