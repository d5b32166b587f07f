// Load for profiling the gateway: `npx tsx bench/profile-load.ts stdio|http|direct-http [calls] [profile-dir]`
// starts `serve mcp` in front of the fixture (under `node --cpu-prof` when a profile folder is
// given: the profile is written there when the gateway exits), makes `calls` echo calls with 16 in
// flight and prints the CPU time each process (this client, the gateway, the fixture) spent per call.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { directHttpClient, httpGatewayClient, runInFlight, stdioClient } from './gateway-clients.js';
import { processTreeCpu } from './process-cpu.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../test/fixtures/mcp-server.mjs', import.meta.url));
const HTTP_ECHO = fileURLToPath(new URL('./echo-http-server.mjs', import.meta.url));
const [transport = 'stdio', count = '4000', profileDir] = process.argv.slice(2);
const dir = await mkdtemp(join(tmpdir(), 'toolplane-cli-profile-'));
try {
  await writeFile(
    join(dir, 'toolplane.config.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE] } } }),
  );
  const args = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), BIN, 'serve', 'mcp'];
  // `direct-http`: no gateway, the bench's echo server over HTTP (the HTTP baseline)
  const gateway =
    transport === 'direct-http'
      ? await directHttpClient(HTTP_ECHO)
      : transport === 'http'
        ? await httpGatewayClient(args, dir)
        : await stdioClient([...args, '--stdio'], dir);
  const tool = transport === 'direct-http' ? 'echo' : 'fixture__echo';
  const echo = () => gateway.client.callTool({ name: tool, arguments: { message: 'hi' } });
  await runInFlight(echo, 200, 16);
  const before = new Map(processTreeCpu().map((entry) => [entry.pid, entry]));
  const start = performance.now();
  await runInFlight(echo, Number(count), 16);
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${transport}: ${count} calls in ${seconds.toFixed(2)} s, ${(Number(count) / seconds).toFixed(0)}/s`,
  );
  for (const entry of processTreeCpu()) {
    const perCall = (ms: number): string => ((1000 * ms) / Number(count)).toFixed(0).padStart(5);
    const earlier = before.get(entry.pid);
    console.log(
      `  pid ${entry.pid} ${perCall(entry.cpuMs - (earlier?.cpuMs ?? 0))} us CPU per call (${perCall(entry.systemMs - (earlier?.systemMs ?? 0))} us in the kernel)  ${entry.command}`,
    );
  }
  await gateway.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
