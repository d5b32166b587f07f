import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, GATEWAY_AUTH, baseEnv, gatewayUrl, tempDir, writeJsonFile } from './helpers.js';
import { startTokenProxy } from './token-proxy.js';

// The official suite, installed by tooling/ci/conformance.sh (it needs Node 22).
const SUITE_DIR = process.env.CONFORMANCE_DIR ?? '/tmp/toolplane-conformance';
const BIN_DIR = join(SUITE_DIR, 'node_modules', '.bin');
const installed = existsSync(join(BIN_DIR, 'conformance')) && existsSync(join(BIN_DIR, 'node'));
const FIXTURE = fileURLToPath(new URL('./fixtures/conformance/server.mjs', import.meta.url));
const CLIENT = fileURLToPath(new URL('./fixtures/conformance/client.mjs', import.meta.url));
const started: ChildProcess[] = [];
const stopped: { close(): Promise<void> }[] = [];
/** One run of the suite: seconds on a quiet machine, minutes on a loaded one; then it is killed. */
const SUITE_LIMIT_MS = 480_000;

afterEach(async () => {
  await Promise.all(stopped.splice(0).map((proxy) => proxy.close()));
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Checks passed and failed per scenario, from the suite's summary lines. */
type ScenarioCounts = Map<string, { passed: number; failed: number }>;

function perScenario(output: string): ScenarioCounts {
  const counts: ScenarioCounts = new Map();
  for (const match of output.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed/gmu))
    counts.set(match[1] as string, { passed: Number(match[2]), failed: Number(match[3]) });
  return counts;
}

async function runSuite(url: string, cwd: string): Promise<ScenarioCounts> {
  const run = await runConformance(['server', '--url', url], cwd, /Total: (\d+) passed, (\d+) failed/);
  return perScenario(run.output);
}

/** Runs of a failing scenario on its own, per side, before its best count stands. */
const RERUNS = 3;

/**
 * A scenario that failed a check is run again on its own, against both servers, up to `RERUNS`
 * times or until it passes every check: on a loaded machine (CI runs other test files beside
 * this one) the suite's own timeouts fail checks now and then, and a scenario must not count
 * against either side for that. Both sides get the same chances; the best run counts.
 */
async function rerunFailed(url: string, cwd: string, counts: ScenarioCounts, scenarios: Iterable<string>) {
  for (const scenario of scenarios) {
    for (let attempt = 0; attempt < RERUNS; attempt++) {
      const best = counts.get(scenario);
      if (!best || best.failed === 0) break;
      // one scenario's run prints `Passed: P/N, F failed`, not the full run's summary lines
      const retried = await runConformance(
        ['server', '--url', url, '--scenario', scenario],
        cwd,
        /Passed: (\d+)\/\d+, (\d+) failed/,
      ).catch(() => undefined);
      if (retried && retried.passed > best.passed)
        counts.set(scenario, { passed: retried.passed, failed: retried.failed });
    }
  }
}

const total = (counts: ScenarioCounts) =>
  [...counts.values()].reduce(
    (sum, entry) => ({ passed: sum.passed + entry.passed, failed: sum.failed + entry.failed }),
    { passed: 0, failed: 0 },
  );

function runConformance(
  args: readonly string[],
  cwd: string,
  total: RegExp,
): Promise<{ passed: number; failed: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(BIN_DIR, 'conformance'), args, {
      cwd,
      env: { ...process.env, PATH: `${BIN_DIR}${delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_LIMIT_MS);
    child.once('error', reject);
    child.once('close', () => {
      clearTimeout(timer);
      const counts = total.exec(output);
      if (!counts) reject(new Error(`the suite printed no total:\n${output.slice(-2000)}`));
      else resolve({ passed: Number(counts[1]), failed: Number(counts[2]), output });
    });
  });
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk) => {
      text += chunk;
      const match = /listening (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', () => reject(new Error(`the fixture server exited: ${text}`)));
  });
}

describe('the official MCP conformance suite (server scenarios)', () => {
  it.skipIf(!installed && process.env.CI !== 'true')(
    'passes as many checks through serve mcp --no-prefix as the fixture server passes directly',
    async () => {
      if (!installed)
        throw new Error(
          `the conformance suite is not installed in ${SUITE_DIR}: run tooling/ci/conformance.sh`,
        );
      const dir = await tempDir();
      try {
        const direct = spawn(process.execPath, [FIXTURE, '--http', '0'], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        started.push(direct);
        await writeJsonFile(dir.path, 'toolplane.config.json', {
          mcpServers: { conf: { command: process.execPath, args: [FIXTURE] } },
          policy: { autoAllow: ['conf__*'] },
        });
        const gateway = spawn(
          process.execPath,
          [BIN, 'serve', 'mcp', '--no-prefix', '--http', '127.0.0.1:0'],
          {
            cwd: dir.path,
            env: baseEnv(),
            stdio: ['pipe', 'pipe', 'pipe'],
          },
        );
        started.push(gateway);
        const [directUrl, gatewayDirect] = await Promise.all([listening(direct), gatewayUrl(gateway)]);
        // the suite takes a URL and no headers: a loopback proxy adds the gateway's token
        const proxy = await startTokenProxy(gatewayDirect, GATEWAY_AUTH.authorization);
        stopped.push(proxy);
        const gatewayAt = proxy.url;
        // one after the other: two suites at once on two cores time out checks
        const directRun = await runSuite(directUrl, dir.path);
        const gatewayRun = await runSuite(gatewayAt, dir.path);
        const scenarios = new Set([...directRun.keys(), ...gatewayRun.keys()]);
        await rerunFailed(directUrl, dir.path, directRun, scenarios);
        await rerunFailed(gatewayAt, dir.path, gatewayRun, scenarios);
        const directly = total(directRun);
        const through = total(gatewayRun);
        const lost = [...scenarios].filter(
          (name) => (gatewayRun.get(name)?.passed ?? 0) < (directRun.get(name)?.passed ?? 0),
        );
        const failing = (counts: ScenarioCounts) =>
          [...counts].filter(([, entry]) => entry.failed > 0).map(([name]) => name);
        process.stdout.write(
          `conformance server checks: fixture directly ${directly.passed} passed, ${directly.failed} failed (${failing(directRun).join(', ') || 'none'}); through the gateway ${through.passed} passed, ${through.failed} failed (${failing(gatewayRun).join(', ') || 'none'})\n`,
        );
        // the fixture passes them all on a quiet machine; one check may time out on a loaded one
        expect(directly.passed).toBeGreaterThanOrEqual(39);
        expect(lost).toEqual([]);
        expect(through.passed).toBeGreaterThanOrEqual(directly.passed);
      } finally {
        await dir.cleanup();
      }
    },
    4 * SUITE_LIMIT_MS,
  );
});

describe('the official MCP conformance suite (client scenarios outside auth/*)', () => {
  it.skipIf(!installed && process.env.CI !== 'true')(
    "passes every client scenario of protocol 2025-11-25 with toolplane's MCP client",
    async () => {
      if (!installed)
        throw new Error(
          `the conformance suite is not installed in ${SUITE_DIR}: run tooling/ci/conformance.sh`,
        );
      const dir = await tempDir();
      try {
        const list = await runConformance(['list'], dir.path, /()()Client scenarios/).then(
          (run) => run.output,
          () => '',
        );
        const scenarios = [...(list.split('Client scenarios')[1]?.matchAll(/- (\S+) \[([^\]]*)\]/g) ?? [])]
          .filter((match) => !match[1]?.startsWith('auth/') && match[2]?.includes('2025-11-25'))
          .map((match) => match[1] as string);
        expect(scenarios.length).toBeGreaterThanOrEqual(4);
        const runs = await Promise.all(
          scenarios.map((scenario) =>
            runConformance(
              ['client', '--command', `node ${CLIENT}`, '--scenario', scenario],
              dir.path,
              /Passed: (\d+)\/\d+, (\d+) failed/,
            ),
          ),
        );
        const passed = runs.reduce((sum, run) => sum + run.passed, 0);
        const failed = runs.reduce((sum, run) => sum + run.failed, 0);
        process.stdout.write(
          `conformance client checks (${scenarios.join(', ')}): ${passed} passed, ${failed} failed\n`,
        );
        expect(failed).toBe(0);
        expect(passed).toBeGreaterThan(0);
      } finally {
        await dir.cleanup();
      }
    },
    2 * SUITE_LIMIT_MS,
  );
});
