// A benchmark target in a process of its own, so the load generator does not share its event
// loop: `node bench/target.mjs bare` (a bare node:http server answering the call's JSON) or
// `node bench/target.mjs server [rateLimitPerMinute]` (the built server on PGlite, with a no-op
// tool). Prints one JSON line `{ url, key }` once listening; stops on SIGTERM; answers the IPC
// message 'memory' with its memory use.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROVIDER_SPEC_VERSION, ok } from '@toolplane/core';
import { startServer } from '../dist/index.js';

const [kind = 'server', rate = '0'] = process.argv.slice(2);

/** A tool that answers at once. */
export const noopProvider = {
  specificationVersion: PROVIDER_SPEC_VERSION,
  kind: 'internal',
  namespace: 'bench',
  listTools: () => [
    {
      name: 'noop',
      description: 'Answers at once',
      inputSchema: { type: 'object', properties: {} },
      sideEffect: 'none',
    },
  ],
  execute: async () => ok('ok'),
};

let stop;
if (kind === 'bare') {
  const answer = JSON.stringify({ result: { ok: true, content: [{ type: 'text', text: 'ok' }] } });
  const bare = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      JSON.parse(body || '{}');
      response.setHeader('content-type', 'application/json');
      response.end(answer);
    });
  });
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
  console.log(JSON.stringify({ url: `http://127.0.0.1:${bare.address().port}`, key: '' }));
  stop = () => new Promise((resolve) => bare.close(resolve));
} else {
  const stateDir = mkdtempSync(join(tmpdir(), 'toolplane-bench-'));
  const server = await startServer({
    stateDir,
    port: 0,
    providers: [noopProvider],
    rateLimitPerMinute: Number(rate),
    log: () => {},
  });
  console.log(JSON.stringify({ url: server.url, key: server.firstAdminKey }));
  stop = async () => {
    await server.close();
    rmSync(stateDir, { recursive: true, force: true });
  };
}
// with an IPC channel and --expose-gc: 'memory' answers the memory after a full collection
process.on('message', (message) => {
  if (message !== 'memory') return;
  globalThis.gc?.();
  process.send?.({ memory: process.memoryUsage() });
});
process.once('SIGTERM', async () => {
  await stop();
  process.exit(0);
});
