import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exited,
  fixturePids,
  fixtureServer,
  gatewayUrl,
  initializeBody,
  isAlive,
  startCli,
  tempDir,
  waitFor,
  writeJsonFile,
  GATEWAY_TRANSPORT_OPTIONS,
} from './helpers.js';

// SIGINT / SIGTERM during each command, while a call runs on a server that started a process
// of its own, or while a server is still starting with a process of its own: the command says
// it was stopped by the signal (for `tools call`, not a racy "error CANCELLED: the orchestrator
// is closing"), exits with 128 + the signal, and leaves no server and no grandchild running.

let dir: { path: string; cleanup(): Promise<void> };
const started: ChildProcess[] = [];
const leftovers: number[] = [];
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

interface Stopped {
  readonly code: number | null | undefined;
  readonly stdout: string;
  readonly stderr: string;
  /** The server and the process it started, both seen running before the signal. */
  readonly tree: readonly number[];
}

async function childPids(pidDir: string): Promise<number[]> {
  const names = await readdir(pidDir).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.child')).map((name) => Number.parseInt(name, 10));
}

/**
 * Runs `args` in a fresh directory whose server is the fixture (`calling`: a call of
 * fixture__sleep with a child runs) or one that starts a child and never answers initialize;
 * signals the command once the server's tree is up and returns what happened.
 */
async function stopDuring(
  name: string,
  args: readonly string[],
  signal: NodeJS.Signals,
  server: 'calling' | 'starting',
  client?: (child: ChildProcess) => Promise<void>,
): Promise<Stopped> {
  const sub = join(dir.path, name);
  const pidDir = join(sub, 'pids');
  await mkdir(pidDir, { recursive: true });
  const hanging = `const { spawn } = require('child_process'); const fs = require('fs');
    const child = spawn('sleep', ['300'], { stdio: 'ignore' });
    fs.writeFileSync(${JSON.stringify(pidDir)} + '/' + child.pid + '.child', '');
    fs.writeFileSync(${JSON.stringify(pidDir)} + '/' + process.pid + '.pid', '');
    process.stdin.resume(); setInterval(() => {}, 1000);`;
  await writeJsonFile(sub, 'toolplane.config.json', {
    mcpServers: {
      fixture:
        server === 'calling'
          ? fixtureServer({ FIXTURE_PID_DIR: pidDir })
          : { command: process.execPath, args: ['-e', hanging] },
    },
    builtin: false,
  });
  const cli = startCli(args, { cwd: sub });
  started.push(cli);
  let stdout = '';
  let stderr = '';
  cli.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  cli.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await client?.(cli);
  const up = await waitFor(async () => {
    const [pid] = await fixturePids(pidDir);
    const children = await childPids(pidDir);
    return (
      pid !== undefined &&
      children.length > 0 &&
      (server === 'starting' || existsSync(join(pidDir, `${pid}.sleeping`)))
    );
  }, 60_000);
  expect(up, name).toBe(true);
  const tree = [...(await fixturePids(pidDir)), ...(await childPids(pidDir))];
  leftovers.push(...tree);
  for (const pid of tree) expect(isAlive(pid), name).toBe(true);
  cli.kill(signal);
  const code = await exited(cli, 30_000);
  await waitFor(() => tree.every((pid) => !isAlive(pid)), 15_000);
  return { code, stdout, stderr, tree };
}

function expectStopped(outcome: Stopped, signal: NodeJS.Signals, code: number, name: string): void {
  expect(outcome.code, name).toBe(code);
  expect(outcome.stderr, name).toContain(`toolplane: stopped by ${signal}`);
  expect(outcome.stderr, name).not.toContain('the orchestrator is closing');
  for (const pid of outcome.tree) expect(isAlive(pid), `${name}: pid ${pid}`).toBe(false);
}

/** An MCP client of the HTTP gateway that calls fixture__sleep (with a child) and does not wait. */
async function httpCaller(cli: ChildProcess): Promise<void> {
  const url = await gatewayUrl(cli, 60_000);
  const client = new Client({ name: 'signals', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), GATEWAY_TRANSPORT_OPTIONS));
  void client
    .callTool({ name: 'fixture__sleep', arguments: { ms: 120_000, child: true } })
    .catch(() => {})
    .finally(() => client.close().catch(() => {}));
}

/** A client of the stdio gateway that calls fixture__sleep (with a child) and keeps stdin open. */
async function stdioCaller(cli: ChildProcess): Promise<void> {
  const call = {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'fixture__sleep', arguments: { ms: 120_000, child: true } },
  };
  cli.stdin?.write(
    `${initializeBody()}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify(call)}\n`,
  );
}

describe('a signal during each command', () => {
  it('says so, exits 128 + the signal and leaves no server or grandchild', async () => {
    const runs = await Promise.all([
      stopDuring(
        'call-int',
        ['tools', 'call', 'fixture__sleep', '--args', '{"ms":120000,"child":true}'],
        'SIGINT',
        'calling',
      ),
      stopDuring(
        'call-term-json',
        ['tools', 'call', 'fixture__sleep', '--json', '--args', '{"ms":120000,"child":true}'],
        'SIGTERM',
        'calling',
      ),
      stopDuring('list', ['tools', 'list'], 'SIGINT', 'starting'),
      stopDuring('doctor', ['doctor'], 'SIGTERM', 'starting'),
      stopDuring('serve-stdio', ['serve', 'mcp', '--stdio'], 'SIGINT', 'calling', stdioCaller),
      stopDuring('serve-http', ['serve', 'mcp', '--http', '127.0.0.1:0'], 'SIGTERM', 'calling', httpCaller),
    ]);
    const [callInt, callTermJson, list, doctor, serveStdio, serveHttp] = runs as [
      Stopped,
      Stopped,
      Stopped,
      Stopped,
      Stopped,
      Stopped,
    ];
    expectStopped(callInt, 'SIGINT', 130, 'tools call');
    expectStopped(callTermJson, 'SIGTERM', 143, 'tools call --json');
    expectStopped(list, 'SIGINT', 130, 'tools list');
    expectStopped(doctor, 'SIGTERM', 143, 'doctor');
    expectStopped(serveStdio, 'SIGINT', 130, 'serve mcp --stdio');
    expectStopped(serveHttp, 'SIGTERM', 143, 'serve mcp --http');
    // nothing half-done on stdout: no partial list or table, no result of the cut call
    for (const [name, run] of [
      ['tools call', callInt],
      ['tools list', list],
      ['doctor', doctor],
    ] as const)
      expect(run.stdout, name).toBe('');
  });
});
