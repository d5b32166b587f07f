import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  exited,
  fakeToken,
  fixturePids,
  fixtureServer,
  isAlive,
  runCli,
  startCli,
  tempDir,
  waitFor,
  writeJsonFile,
} from './helpers.js';

let dir: { path: string; cleanup(): Promise<void> };
let pidDir: string;
beforeEach(async () => {
  dir = await tempDir();
  pidDir = join(dir.path, 'pids');
});
afterEach(async () => {
  for (const pid of await fixturePids(pidDir)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

async function writeConfig(
  extra: Record<string, unknown> = {},
  env: Record<string, string> = {},
): Promise<void> {
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { fixture: fixtureServer({ FIXTURE_PID_DIR: pidDir, ...env }) },
    ...extra,
  });
}

describe('MCP servers through the CLI', () => {
  it('lists MCP tools with namespace, kind and risk', async () => {
    await writeConfig();
    const { code, stdout } = await runCli(['tools', 'list', '--json'], { cwd: dir.path });
    expect(code).toBe(0);
    const tools = JSON.parse(stdout) as { name: string; namespace: string; kind: string; risk: string }[];
    const echo = tools.find((tool) => tool.name === 'fixture__echo');
    expect(echo).toMatchObject({ namespace: 'fixture', kind: 'mcp', risk: 'low' });
    const write = tools.find((tool) => tool.name === 'fixture__write_note');
    expect(write?.risk).not.toBe('low');
  });

  it('calls an MCP tool, prints content and structured data, and leaves no server behind', async () => {
    await writeConfig();
    const { code, stdout, stderr } = await runCli(
      ['tools', 'call', 'fixture__add', '--args', '{"a":2,"b":40}'],
      {
        cwd: dir.path,
      },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('42');
    expect(stdout).toContain('"sum": 42');
    expect(stderr).toMatch(/ok · fixture__add · \d+ ms/);
    const pids = await fixturePids(pidDir);
    expect(pids.length).toBeGreaterThan(0);
    expect(await waitFor(() => pids.every((pid) => !isAlive(pid)), 10_000)).toBe(true);
  });

  it('SIGINT during a call stops the MCP server and exits 130', async () => {
    await writeConfig();
    const child = startCli(['tools', 'call', 'fixture__sleep', '--args', '{"ms":60000}'], { cwd: dir.path });
    expect(await waitFor(async () => (await fixturePids(pidDir)).length > 0, 30_000)).toBe(true);
    const pids = await fixturePids(pidDir);
    // the call has reached the server (its sleep tool is running)
    expect(await waitFor(() => existsSync(join(pidDir, `${pids[0]}.sleeping`)), 30_000)).toBe(true);
    child.kill('SIGINT');
    expect(await exited(child, 20_000)).toBe(130);
    expect(await waitFor(() => pids.every((pid) => !isAlive(pid)), 10_000)).toBe(true);
  });

  it('reports a tool error with its code and exit code 1', async () => {
    await writeConfig();
    const { code, stderr } = await runCli(['tools', 'call', 'fixture__fail', '--args', '{}'], {
      cwd: dir.path,
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/error [A-Z_]+: .*failed on purpose/);
  });

  it('treats the command line as the approval of the named call, and deny rules still apply', async () => {
    await writeConfig();
    const approved = await runCli(['tools', 'call', 'fixture__write_note', '--args', '{"text":"hi"}'], {
      cwd: dir.path,
    });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('stored: hi');
    await writeConfig({ policy: { deny: ['fixture__write_note'] } });
    const denied = await runCli(['tools', 'call', 'fixture__write_note', '--args', '{"text":"hi"}'], {
      cwd: dir.path,
    });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/error (DENIED|TOOL_NOT_FOUND)/);
    expect(denied.stdout).not.toContain('stored');
  });

  it('hides denied tools from tools list', async () => {
    await writeConfig({ policy: { deny: ['fixture__write_note'] } });
    const { code, stdout } = await runCli(['tools', 'list', '--json'], { cwd: dir.path });
    expect(code).toBe(0);
    const names = (JSON.parse(stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('fixture__echo');
    expect(names).not.toContain('fixture__write_note');
  });

  it('scrubs credentials from output: token patterns and the secret values given to servers', async () => {
    const patterned = fakeToken('ghp_');
    await writeConfig({}, { FIXTURE_SECRET: patterned });
    const first = await runCli(['tools', 'call', 'fixture__leak'], { cwd: dir.path });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('config loaded; token=');
    expect(first.stdout).not.toContain(patterned);
    expect(first.stdout).toContain('[REDACTED');
    // a value with no recognisable shape is still redacted, because it was injected into the server's env
    const plain = fakeToken('').slice(0, 24);
    await writeConfig({}, { FIXTURE_SECRET: plain });
    const second = await runCli(['tools', 'call', 'fixture__leak', '--json'], { cwd: dir.path });
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain(plain);
    expect(second.stdout).toContain('[REDACTED');
  });

  it('caps large outputs and says how to read the rest', async () => {
    await writeConfig({ limits: { maxOutputBytes: 2048 } });
    const { code, stdout, stderr } = await runCli(
      ['tools', 'call', 'fixture__big', '--args', '{"lines":5000}'],
      {
        cwd: dir.path,
      },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('line 1');
    expect(stdout).not.toContain('line 5000\n');
    expect(stderr).toMatch(/truncated \(handle [^)]+\)/);
  });

  it('doctor reports working and failing providers in one table, with the reason', async () => {
    await writeJsonFile(dir.path, 'toolplane.config.json', {
      mcpServers: {
        fixture: fixtureServer({ FIXTURE_PID_DIR: pidDir }),
        crashes: {
          command: process.execPath,
          args: ['-e', 'process.stderr.write("boom: no database\\n"); process.exit(3)'],
        },
        missing: { command: 'toolplane-test-no-such-command' },
      },
      builtin: { workspace: '.' },
    });
    const [{ code, stdout }, json] = await Promise.all([
      runCli(['doctor'], { cwd: dir.path, timeoutMs: 120_000 }),
      runCli(['doctor', '--json'], { cwd: dir.path, timeoutMs: 120_000 }),
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^PROVIDER\s+KIND\s+STATUS\s+TOOLS\s+START\s+PING\s+DETAIL$/m);
    expect(stdout).toMatch(/^fixture\s+mcp\s+ok\s+7\s+\d+ ms\s+[\d.]+ ms\s+cli-fixture 1\.2\.3/m);
    expect(stdout).toMatch(/^crashes\s+mcp\s+FAILED\s+0\s+\d+ ms\s+-\s+\S/m);
    expect(stdout).toMatch(/^missing\s+mcp\s+FAILED\s+0\s+\d+ ms\s+-\s+\S/m);
    expect(stdout).toMatch(/^builtin\s+builtin\s+ok\s+4\s+/m);
    expect(stdout).toContain('2 of 4 provider(s) do not work');
    const report = JSON.parse(json.stdout) as {
      ok: boolean;
      providers: { provider: string; ok: boolean; detail: string }[];
    };
    expect(report.ok).toBe(false);
    const crashes = report.providers.find((row) => row.provider === 'crashes');
    expect(crashes?.ok).toBe(false);
    expect(crashes?.detail.length).toBeGreaterThan(0);
    const pids = await fixturePids(pidDir);
    expect(await waitFor(() => pids.every((pid) => !isAlive(pid)), 10_000)).toBe(true);
  });

  it('policy explain shows the steps for a tool and principal', async () => {
    await writeConfig({
      policy: { deny: ['fixture__leak'], agents: { reviewer: { allow: ['fixture__echo'] } } },
    });
    const [hidden, visible, agentHidden, unknown] = await Promise.all([
      runCli(['policy', 'explain', 'fixture__leak'], { cwd: dir.path }),
      runCli(['policy', 'explain', 'fixture__echo', '--agent', 'reviewer', '--json'], { cwd: dir.path }),
      runCli(['policy', 'explain', 'fixture__add', '--agent', 'reviewer', '--json'], { cwd: dir.path }),
      runCli(['policy', 'explain', 'fixture__nope'], { cwd: dir.path }),
    ]);
    expect(hidden.code).toBe(0);
    expect(hidden.stdout).toContain('fixture__leak');
    expect(hidden.stdout).toContain('HIDDEN');
    expect(hidden.stdout).toContain('decided by:');
    expect(visible.code).toBe(0);
    expect((JSON.parse(visible.stdout) as { visible: boolean }).visible).toBe(true);
    expect((JSON.parse(agentHidden.stdout) as { visible: boolean }).visible).toBe(false);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no tool named fixture__nope');
  });
});
