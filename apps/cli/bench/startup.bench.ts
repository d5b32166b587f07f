// Start-up of the built `toolplane` binary against bare `node -e ''` (`--help`, `tools list` and
// `tools call read` on a small file, with no config; the last two also against the same commands
// run from tsc's unbundled files, built for the run), and the cost of the MCP
// gateway (`serve mcp` over stdio and over HTTP, default policy and scrubber on) per call and
// with 16 calls in flight, against the raw SDK client talking to the same server. Run after a build:
// pnpm --filter @toolplane/cli bench
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { result, timeInterleaved } from '@toolplane/bench';
import { directHttpClient, httpGatewayClient, runInFlight, stdioClient } from './gateway-clients.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../test/fixtures/mcp-server.mjs', import.meta.url));
const HTTP_ECHO = fileURLToPath(new URL('./echo-http-server.mjs', import.meta.url));
/** tsc's files of the CLI, unbundled, where they still resolve the packages from node_modules. */
const UNBUNDLED = fileURLToPath(new URL('../node_modules/.cache/toolplane-cli-unbundled/', import.meta.url));

function buildUnbundled(): string {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const options = ['--outDir', UNBUNDLED, '--declaration', 'false', '--declarationMap', 'false'];
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', ...options], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: 'inherit',
  });
  return join(UNBUNDLED, 'bin.js');
}

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
/** Calls in flight at once for the throughput figures, and calls per timed round. */
const IN_FLIGHT = 16;
const BURST = 64;
const dir = await mkdtemp(join(tmpdir(), 'toolplane-cli-bench-'));
try {
  // `--gateway-only` skips the start-up figures (for profiling the gateway)
  if (!process.argv.includes('--gateway-only')) {
    // `tools call read` on a small file: no config, so the read-only built-in tools on `dir`
    await writeFile(join(dir, 'small.txt'), 'one line of text\n');
    const unbundled = buildUnbundled();
    const startup = await timeInterleaved(
      {
        'node-e': { fn: () => run(['-e', ''], dir), batch: 1 },
        help: { fn: () => run([BIN, '--help'], dir), batch: 1 },
        version: { fn: () => run([BIN, '--version'], dir), batch: 1 },
        'tools-list': { fn: () => run([BIN, 'tools', 'list', '--json'], dir), batch: 1 },
        'tools-call-read': {
          fn: () => run([BIN, 'tools', 'call', 'read', '--args', '{"path":"small.txt"}'], dir),
          batch: 1,
        },
        'tools-list-unbundled': { fn: () => run([unbundled, 'tools', 'list', '--json'], dir), batch: 1 },
        'tools-call-read-unbundled': {
          fn: () => run([unbundled, 'tools', 'call', 'read', '--args', '{"path":"small.txt"}'], dir),
          batch: 1,
        },
      },
      { rounds: 15, warmupRounds: 2 },
    );
    const base = startup['node-e']?.medianUs ?? Number.NaN;
    for (const [name, stats] of Object.entries(startup)) {
      console.log(
        `${name.padEnd(26)} median ${ms(stats.medianUs).toFixed(1)} ms  p99 ${ms(stats.p99Us).toFixed(1)} ms`,
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
    result('cli/tools-call-read-small-file', ms(startup['tools-call-read']?.medianUs ?? Number.NaN), 'ms', {
      baseline: 'node-e',
      ratio: (startup['tools-call-read']?.medianUs ?? Number.NaN) / base,
    });
    // the bundle against the same commands loading each package's modules one by one
    for (const name of ['tools-list', 'tools-call-read']) {
      const bundled = startup[name]?.medianUs ?? Number.NaN;
      result(`cli/${name}-vs-unbundled`, ms(bundled), 'ms', {
        baseline: `${name}-unbundled`,
        ratio: bundled / (startup[`${name}-unbundled`]?.medianUs ?? Number.NaN),
      });
    }
  }
  // `--startup-only` skips the gateway figures
  if (!process.argv.includes('--startup-only')) {
    await writeFile(
      join(dir, 'toolplane.config.json'),
      JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE] } } }),
    );
    const direct = await stdioClient([FIXTURE], dir);
    const viaStdio = await stdioClient([BIN, 'serve', 'mcp', '--stdio'], dir);
    const viaHttp = await httpGatewayClient([BIN, 'serve', 'mcp'], dir);
    const directHttp = await directHttpClient(HTTP_ECHO);
    try {
      const echo = (client: Client, name: string) => () =>
        client.callTool({ name, arguments: { message: 'hi' } });
      const directEcho = echo(direct.client, 'echo');
      const stdioEcho = echo(viaStdio.client, 'fixture__echo');
      const httpEcho = echo(viaHttp.client, 'fixture__echo');
      const directHttpEcho = echo(directHttp.client, 'echo');
      // one call at a time: rounds of one call, so the median round is the p50 of one call
      const single = await timeInterleaved(
        {
          direct: { fn: directEcho, batch: 1 },
          stdio: { fn: stdioEcho, batch: 1 },
          'direct-http': { fn: directHttpEcho, batch: 1 },
          http: { fn: httpEcho, batch: 1 },
        },
        { rounds: 300, warmupRounds: 30 },
      );
      // 16 calls in flight: rounds of BURST calls, throughput from the median round
      const loaded = await timeInterleaved(
        {
          direct: { fn: () => runInFlight(directEcho, BURST, IN_FLIGHT), batch: 1 },
          stdio: { fn: () => runInFlight(stdioEcho, BURST, IN_FLIGHT), batch: 1 },
          'direct-http': { fn: () => runInFlight(directHttpEcho, BURST, IN_FLIGHT), batch: 1 },
          http: { fn: () => runInFlight(httpEcho, BURST, IN_FLIGHT), batch: 1 },
        },
        { rounds: 40, warmupRounds: 4 },
      );
      const p50 = (name: string): number => single[name]?.medianUs ?? Number.NaN;
      const perSecond = (name: string): number => (BURST * 1e6) / (loaded[name]?.medianUs ?? Number.NaN);
      console.log(
        `echo p50: direct stdio ${ms(p50('direct')).toFixed(2)} ms, direct http ${ms(p50('direct-http')).toFixed(2)} ms, serve mcp stdio ${ms(p50('stdio')).toFixed(2)} ms, serve mcp http ${ms(p50('http')).toFixed(2)} ms`,
      );
      console.log(
        `echo with ${IN_FLIGHT} in flight: direct stdio ${perSecond('direct').toFixed(0)}/s, direct http ${perSecond('direct-http').toFixed(0)}/s, serve mcp stdio ${perSecond('stdio').toFixed(0)}/s, serve mcp http ${perSecond('http').toFixed(0)}/s`,
      );
      // both transports against the fixture called directly over stdio (what the gateway fronts);
      // HTTP also against the same echo tool served directly over streamable HTTP (the same client
      // transport on both sides, so the figure is the gateway's own cost, not the HTTP client's)
      result('cli/gateway-echo-call', ms(p50('stdio')), 'ms', {
        baseline: 'sdk-client-direct-stdio',
        ratio: p50('stdio') / p50('direct'),
      });
      result('cli/gateway-http-echo-call', ms(p50('http')), 'ms', {
        baseline: 'sdk-client-direct-stdio',
        ratio: p50('http') / p50('direct'),
      });
      result('cli/gateway-http-echo-call-vs-http', ms(p50('http')), 'ms', {
        baseline: 'sdk-client-direct-http',
        ratio: p50('http') / p50('direct-http'),
      });
      result('cli/direct-echo-throughput-16', perSecond('direct'), 'calls/s');
      result('cli/direct-http-echo-throughput-16', perSecond('direct-http'), 'calls/s');
      result('cli/gateway-echo-throughput-16', perSecond('stdio'), 'calls/s', {
        baseline: 'sdk-client-direct-stdio',
        ratio: perSecond('stdio') / perSecond('direct'),
      });
      result('cli/gateway-http-echo-throughput-16', perSecond('http'), 'calls/s', {
        baseline: 'sdk-client-direct-stdio',
        ratio: perSecond('http') / perSecond('direct'),
      });
      result('cli/gateway-http-echo-throughput-16-vs-http', perSecond('http'), 'calls/s', {
        baseline: 'sdk-client-direct-http',
        ratio: perSecond('http') / perSecond('direct-http'),
      });
    } finally {
      await Promise.all([direct.close(), viaStdio.close(), viaHttp.close(), directHttp.close()]);
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
