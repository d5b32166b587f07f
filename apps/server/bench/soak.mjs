// Soak: REST calls, MCP calls and tool lists against the built server (PGlite, the per-key rate
// limit on, every call booked) over loopback for SOAK_DURATION_S (default 600 s), printing the
// server's memory before and after (each after a full garbage collection) and the failed calls.
// Run: npx -y pnpm@10 --filter @toolplane/server... build && node apps/server/bench/soak.mjs
import autocannon from 'autocannon';
import { spawnTarget } from './spawn-target.mjs';

const DURATION_S = Number(process.env.SOAK_DURATION_S ?? 600);
const WARMUP_S = Math.min(30, Math.max(5, Math.round(DURATION_S / 10)));
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 10);
if (!(DURATION_S > 0 && DURATION_S <= 24 * 3600))
  throw new Error('SOAK_DURATION_S must be between 1 and 86400');

const target = await spawnTarget(['server', '1000000000']);
const url = new URL(target.url);
if (url.hostname !== '127.0.0.1') throw new Error(`the soak runs on loopback only, not ${url.hostname}`);
const headers = { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' };
const requests = [
  { method: 'POST', path: '/v1/tools/bench__noop/call', headers, body: JSON.stringify({ arguments: {} }) },
  {
    method: 'POST',
    path: '/mcp',
    headers: { ...headers, accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'bench__noop', arguments: {} },
    }),
  },
  { method: 'GET', path: '/v1/tools', headers },
];

const load = (duration) =>
  new Promise((resolve, reject) => {
    autocannon({ url: target.url, connections: CONNECTIONS, duration, requests }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const failedOf = (result) => result.errors + result.timeouts + (result.non2xx ?? 0);

try {
  const warmup = await load(WARMUP_S);
  const before = await target.memory();
  console.log(`warm-up ${WARMUP_S} s: ${warmup.requests.total} requests, ${failedOf(warmup)} failed`);
  console.log(`before: rss ${mib(before.rss)}, heap used ${mib(before.heapUsed)}`);
  const soak = await load(DURATION_S);
  const after = await target.memory();
  console.log(`after:  rss ${mib(after.rss)}, heap used ${mib(after.heapUsed)}`);
  const growth = (field) => (((after[field] - before[field]) / before[field]) * 100).toFixed(1);
  const failed = failedOf(soak);
  console.log(
    `RESULT server/soak ${DURATION_S} s: ${soak.requests.total} requests (${soak.requests.average.toFixed(0)} req/s), ${failed} failed, rss ${growth('rss')}%, heap used ${growth('heapUsed')}%`,
  );
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  await target.stop();
}
