// Reliability run (outside the CI tests): N start/close cycles of a server behind a three-level
// wrapper (node -> node -> server) that spawns grandchildren (one of them setsid), then a parent
// killed with SIGTERM mid-call; prints how many of its processes are left (expected 0).
// Run: pnpm --filter @toolplane/mcp-provider reliability [cycles]   (default 1000)
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToolContext } from '@toolplane/core';
import { createMcpProvider } from '../src/index.js';

const cycles = Number(process.argv[2] ?? 1000);
const tag = `tp-reliability-${randomUUID()}`;
const fixture = (name: string): string => fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));

function countTagged(): number {
  let count = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(tag)) count++;
    } catch {
      // gone
    }
  }
  return count;
}

async function settle(): Promise<number> {
  for (let i = 0; i < 200 && countTagged() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  return countTagged();
}

const config = {
  type: 'stdio' as const,
  command: process.execPath,
  args: [fixture('wrapper.mjs'), '2', process.execPath, fixture('server.mjs'), `--tag=${tag}`],
  healthIntervalMs: 0,
};
const before = countTagged();
const started = Date.now();
let failures = 0;
for (let cycle = 1; cycle <= cycles; cycle++) {
  const provider = createMcpProvider('reliability', config);
  try {
    await provider.start?.(AbortSignal.timeout(60_000));
    if (cycle % 10 === 0) {
      await provider.execute('spawn_grandchild', {}, createToolContext());
      await provider.execute('spawn_grandchild', { detached: true }, createToolContext());
    }
  } catch (error) {
    failures++;
    console.error(`cycle ${cycle}: ${String(error)}`);
  }
  await provider.close?.();
  if (cycle % 100 === 0)
    console.log(`${cycle} cycles, ${countTagged()} tagged processes alive, ${failures} start failures`);
}
const afterCycles = await settle();

// A parent killed with SIGTERM mid-call.
const runDirectory = mkdtempSync(join(tmpdir(), 'tp-reliability-'));
const parent = spawn(
  process.execPath,
  ['--conditions=@toolplane/source', '--import', 'tsx', fixture('parent.ts'), tag, runDirectory, 'wait'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise<void>((resolve, reject) => {
  parent.stdout?.on('data', (chunk) => {
    if (String(chunk).includes('READY')) resolve();
  });
  parent.once('exit', (code) => reject(new Error(`parent exited early (${code})`)));
});
parent.kill('SIGTERM');
await new Promise((resolve) => parent.once('exit', resolve));
const afterParent = await settle();
rmSync(runDirectory, { recursive: true, force: true });

console.log(
  `cycles: ${cycles} in ${((Date.now() - started) / 1000).toFixed(1)} s, start failures: ${failures}`,
);
console.log(
  `processes left: before ${before}, after cycles ${afterCycles}, after parent SIGTERM ${afterParent}`,
);
console.log(`RESULT mcp-provider/orphans-after-${cycles}-cycles ${afterCycles + afterParent} processes`);
process.exit(afterCycles + afterParent === 0 && failures === 0 ? 0 : 1);
