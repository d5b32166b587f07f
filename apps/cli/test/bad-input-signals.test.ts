import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  exited,
  fixturePids,
  fixtureServer,
  isAlive,
  startCli,
  tempDir,
  waitFor,
  writeJsonFile,
} from './helpers.js';

// An operator stops a call that runs (Ctrl-C, or a supervisor's SIGTERM): the command exits
// with 128 + the signal number, and the MCP server it started is gone with its own children.

const dirs: { path: string; cleanup(): Promise<void> }[] = [];
const leftovers: number[] = [];
const started: ChildProcess[] = [];
afterEach(async () => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of leftovers.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dirs.splice(0)) await dir.cleanup();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'junk', version: '1' } },
});

async function childPids(pidDir: string): Promise<number[]> {
  const names = await readdir(pidDir).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.child')).map((name) => Number.parseInt(name, 10));
}

async function signalDuringCall(signal: NodeJS.Signals): Promise<number | null | undefined> {
  const dir = await tempDir();
  dirs.push(dir);
  const pidDir = join(dir.path, 'pids');
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { fixture: fixtureServer({ FIXTURE_PID_DIR: pidDir }) },
  });
  const cli = startCli(['tools', 'call', 'fixture__sleep', '--args', '{"ms":120000,"child":true}'], {
    cwd: dir.path,
  });
  // the call has reached the server, which has started a process of its own
  const running = await waitFor(async () => {
    const [server] = await fixturePids(pidDir);
    return server !== undefined && existsSync(join(pidDir, `${server}.sleeping`));
  }, 60_000);
  expect(running).toBe(true);
  const tree = [...(await fixturePids(pidDir)), ...(await childPids(pidDir))];
  leftovers.push(...tree);
  expect(tree).toHaveLength(2);
  for (const pid of tree) expect(isAlive(pid)).toBe(true);
  cli.kill(signal);
  const code = await exited(cli, 30_000);
  expect(await waitFor(() => tree.every((pid) => !isAlive(pid)), 15_000)).toBe(true);
  return code;
}

describe('a signal while a tool call runs', () => {
  it('SIGTERM and SIGINT exit 143 and 130, and the server and its child are gone', async () => {
    const [term, interrupt] = await Promise.all([signalDuringCall('SIGTERM'), signalDuringCall('SIGINT')]);
    expect(term).toBe(143);
    expect(interrupt).toBe(130);
  });
});

describe('a signal while the providers start', () => {
  it('ends the command with 128 + the signal, without running it on a closing runtime', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const sub = join(dir.path, 'slow-start');
    await mkdir(sub, { recursive: true });
    const marker = join(sub, 'started');
    // an MCP server that starts and never answers initialize
    const server = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); process.stdin.resume(); setInterval(() => {}, 1000);`;
    await writeFile(
      join(sub, 'toolplane.config.json'),
      JSON.stringify({ mcpServers: { slow: { command: process.execPath, args: ['-e', server] } } }),
    );
    const cases = [
      [['serve', 'mcp', '--stdio'], 'SIGTERM', 143],
      [['tools', 'list'], 'SIGINT', 130],
      [['doctor'], 'SIGINT', 130],
    ] as const;
    for (const [args, signal, code] of cases) {
      await rm(marker, { force: true });
      const child = startCli(args, { cwd: sub });
      started.push(child);
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      // a client that sent initialize and waits, stdin open
      child.stdin?.write(`${INITIALIZE}\n`);
      expect(await waitFor(() => existsSync(marker), 60_000)).toBe(true);
      child.kill(signal);
      expect(await exited(child, 30_000), args.join(' ')).toBe(code);
      expect(stdout, args.join(' ')).toBe('');
      expect(stderr, args.join(' ')).not.toContain('the orchestrator is clos');
      expect(stderr, args.join(' ')).not.toContain('serving');
      expect(stderr, args.join(' ')).not.toContain('FAILED');
    }
  });
});
