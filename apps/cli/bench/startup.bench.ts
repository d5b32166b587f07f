// Start-up of the built `toolplane` binary against bare `node -e ''`, and the cost of the MCP
// gateway per call against the raw SDK client talking to the same server. Run after a build:
// pnpm --filter @toolplane/cli bench
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { result, timeInterleaved } from '@toolplane/bench';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../test/fixtures/mcp-server.mjs', import.meta.url));

function run(args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      stdio: 'ignore',
      env: { ...process.env, NO_COLOR: '1' },
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}`)),
    );
  });
}

const ms = (us: number): number => us / 1000;
const dir = await mkdtemp(join(tmpdir(), 'toolplane-cli-bench-'));
try {
  const startup = await timeInterleaved(
    {
      'node-e': { fn: () => run(['-e', ''], dir), batch: 1 },
      help: { fn: () => run([BIN, '--help'], dir), batch: 1 },
      version: { fn: () => run([BIN, '--version'], dir), batch: 1 },
      'tools-list': { fn: () => run([BIN, 'tools', 'list', '--json'], dir), batch: 1 },
    },
    { rounds: 15, warmupRounds: 2 },
  );
  const base = startup['node-e']?.medianUs ?? Number.NaN;
  for (const [name, stats] of Object.entries(startup)) {
    console.log(
      `${name.padEnd(12)} median ${ms(stats.medianUs).toFixed(1)} ms  p99 ${ms(stats.p99Us).toFixed(1)} ms`,
    );
  }
  result('cli/startup-node-e', ms(base), 'ms');
  result('cli/startup-help', ms(startup.help?.medianUs ?? Number.NaN), 'ms', {
    baseline: 'node-e',
    ratio: (startup.help?.medianUs ?? Number.NaN) / base,
  });
  result('cli/startup-help-overhead', ms((startup.help?.medianUs ?? Number.NaN) - base), 'ms');
  result('cli/tools-list-no-config', ms(startup['tools-list']?.medianUs ?? Number.NaN), 'ms', {
    baseline: 'node-e',
    ratio: (startup['tools-list']?.medianUs ?? Number.NaN) / base,
  });

  await writeFile(
    join(dir, 'toolplane.config.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE] } } }),
  );
  const direct = new Client({ name: 'bench', version: '1.0.0' });
  await direct.connect(
    new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }),
  );
  const gateway = new Client({ name: 'bench', version: '1.0.0' });
  await gateway.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', 'mcp', '--stdio'],
      cwd: dir,
      stderr: 'ignore',
    }),
  );
  const calls = await timeInterleaved(
    {
      direct: { fn: () => direct.callTool({ name: 'echo', arguments: { message: 'hi' } }), batch: 20 },
      gateway: {
        fn: () => gateway.callTool({ name: 'fixture__echo', arguments: { message: 'hi' } }),
        batch: 20,
      },
    },
    { rounds: 30, warmupRounds: 3 },
  );
  const directUs = calls.direct?.medianUs ?? Number.NaN;
  const gatewayUs = calls.gateway?.medianUs ?? Number.NaN;
  console.log(`echo direct ${ms(directUs).toFixed(2)} ms, through serve mcp ${ms(gatewayUs).toFixed(2)} ms`);
  result('cli/gateway-echo-call', ms(gatewayUs), 'ms', {
    baseline: 'sdk-client-direct',
    ratio: gatewayUs / directUs,
  });
  await direct.close();
  await gateway.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
