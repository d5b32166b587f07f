// Runnable example: one stdio server and one streamable-HTTP server behind the orchestrator,
// offline (it uses this package's fixture servers). Run: pnpm --filter @toolplane/mcp-provider example
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createOrchestrator } from '@toolplane/orchestrator';
import { createMcpProvider } from '../src/index.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));

// A remote MCP server on 127.0.0.1 (port 0) to talk to over HTTP.
const httpServer = spawn(process.execPath, [fixture('http-server.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise<number>((resolve) => {
  httpServer.stdout?.on('data', (chunk) => {
    const match = /PORT (\d+)/.exec(String(chunk));
    if (match) resolve(Number(match[1]));
  });
});

const orchestrator = createOrchestrator();
orchestrator.register(
  createMcpProvider('local', { type: 'stdio', command: process.execPath, args: [fixture('server.mjs')] }),
);
orchestrator.register(createMcpProvider('remote', { url: `http://127.0.0.1:${port}/mcp` }));
orchestrator.register(createMcpProvider('missing', { type: 'stdio', command: '/no/such/server' }));

for (const entry of await orchestrator.warmup()) {
  console.log(`${entry.provider}: ${entry.ok ? `${entry.tools} tools` : `failed: ${entry.error}`}`);
}
console.log(await orchestrator.call('local__echo', { message: 'hello over stdio' }));
console.log(await orchestrator.call('remote__add', { a: 2, b: 40 }));
console.log(await orchestrator.call('remote__echo', { message: 42 })); // INVALID_ARGUMENTS, never sent
await orchestrator.close();
httpServer.kill();
