// Benchmark: a no-op tool call through the server's REST API and its MCP endpoint, beside a
// bare node:http server answering the same JSON, in one run with autocannon. Each target runs
// alone in a process of its own; autocannon runs in this one.
// Run: npx -y pnpm@10 --filter @toolplane/server... build && npx -y pnpm@10 --filter @toolplane/server bench
import autocannon from 'autocannon';
import { spawnTarget } from './spawn-target.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = 10;
const CALL_PATH = '/v1/tools/bench__noop/call';
const callBody = JSON.stringify({ arguments: {} });
const mcpBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'bench__noop', arguments: {} },
});

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon(
      { connections: CONNECTIONS, duration: DURATION_S, method: 'POST', ...options },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** Starts a target, warms it up for 1 s, measures, stops it. */
async function measure(title, args, request) {
  const target = await spawnTarget(args);
  try {
    const headers = {
      'content-type': 'application/json',
      ...(target.key ? { authorization: `Bearer ${target.key}` } : {}),
      ...request.headers,
    };
    const options = { url: `${target.url}${request.path}`, headers, body: request.body };
    await load({ ...options, duration: 1 });
    const result = await load(options);
    const failed = result.errors + result.timeouts + (result.non2xx ?? 0);
    console.log(
      `${title}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ${failed} failed`,
    );
    return { rps: result.requests.average, p99: result.latency.p99, failed };
  } finally {
    await target.stop();
  }
}

const rest = { path: CALL_PATH, body: callBody, headers: {} };
const baseline = await measure('bare node:http', ['bare'], rest);
const restCall = await measure(
  'REST call (auth, grants, policy, scrubber, accounting)',
  ['server', '0'],
  rest,
);
const restLimited = await measure(
  'REST call + per-key rate limit (counted in memory, exchanged with the database every 250 ms)',
  ['server', '1000000000'],
  rest,
);
const mcp = await measure('MCP tools/call (stateless streamable HTTP)', ['server', '0'], {
  path: '/mcp',
  body: mcpBody,
  headers: { accept: 'application/json, text/event-stream' },
});
const ratio = (figure) => (figure.rps / baseline.rps).toFixed(2);
console.log(
  `RESULT server/rest-noop-call ${restCall.rps.toFixed(0)} req/s vs bare-node-http ${ratio(restCall)}x`,
);
console.log(
  `RESULT server/rest-noop-call-rate-limited ${restLimited.rps.toFixed(0)} req/s vs bare-node-http ${ratio(restLimited)}x`,
);
console.log(`RESULT server/mcp-noop-call ${mcp.rps.toFixed(0)} req/s vs bare-node-http ${ratio(mcp)}x`);
console.log(`RESULT server/rest-noop-call-p99 ${restCall.p99} ms vs bare-node-http ${baseline.p99} ms`);
console.log(`RESULT server/mcp-noop-call-p99 ${mcp.p99} ms vs bare-node-http ${baseline.p99} ms`);
