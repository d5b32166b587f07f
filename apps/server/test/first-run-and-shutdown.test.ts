import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildServer } from './helpers/built-server.js';

const STDIO_SERVER = fileURLToPath(new URL('./fixtures/stdio-mcp-server.mjs', import.meta.url));

interface Started {
  readonly child: ChildProcess;
  readonly banner: string;
  readonly url: string;
  readonly exited: Promise<number | null>;
}

/** Starts `node dist/main.js` and waits for its banner (bounded: 200 checks, 100 ms apart). */
async function startBuilt(main: string, stateDir: string): Promise<Started> {
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      TOOLPLANE_STATE_DIR: stateDir,
      TOOLPLANE_PORT: '0',
      TOOLPLANE_SHUTDOWN_DEADLINE_MS: '8000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (data) => {
    out += data;
  });
  child.stderr?.on('data', (data) => {
    err += data;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  for (let attempt = 0; attempt < 200 && !/listening on (\S+)/.test(out); attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // the banner is written in one piece; give the rest of it a moment to arrive
  await new Promise((resolve) => setTimeout(resolve, 100));
  const url = /listening on (\S+)/.exec(out)?.[1];
  if (!url) throw new Error(`no banner: ${out} ${err}`);
  return { child, banner: out, url, exited };
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((child) => child > 0);
  } catch {
    return [];
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the built server: first run and graceful shutdown', () => {
  let main: string;
  let stateDir: string;
  let running: Started | undefined;

  beforeAll(() => {
    main = buildServer();
    stateDir = mkdtempSync(join(tmpdir(), 'toolplane-built-'));
    cpSync(inject('pgliteTemplate'), join(stateDir, 'db'), { recursive: true });
  }, 300_000);
  afterAll(() => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('prints its URL, the first admin key once with a curl line and an MCP client entry, and finishes calls in flight on SIGTERM leaving no child process', async () => {
    running = await startBuilt(main, stateDir);
    const { banner, url, child } = running;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const key = /\b(tpk_[A-Za-z0-9_-]{43})\b/.exec(banner)?.[1] as string;
    expect(key).toBeDefined();
    expect(banner).toContain(`curl -s -H 'Authorization: Bearer ${key}' ${url}/v1/tools`);
    expect(banner).toContain('"mcpServers"');
    expect(banner).toContain(`"url": "${url}/mcp"`);
    expect(statSync(join(stateDir, 'secret.key')).mode & 0o777).toBe(0o600);

    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const put = await fetch(`${url}/v1/mcp-servers/fixture`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ type: 'stdio', command: process.execPath, args: [STDIO_SERVER] }),
    });
    expect(put.status).toBe(200);
    const pidCall = (await (
      await fetch(`${url}/v1/tools/fixture__pid/call`, { method: 'POST', headers, body: '{}' })
    ).json()) as {
      result: { content: { text: string }[] };
    };
    const mcpPid = Number(pidCall.result.content[0]?.text);
    expect(childrenOf(child.pid as number)).toContain(mcpPid);

    const inFlight = fetch(`${url}/v1/tools/fixture__slow/call`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ arguments: { ms: 1500 } }),
    }).then(
      (response) => response.json() as Promise<{ result: { ok: boolean; content: { text: string }[] } }>,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    const finished = await inFlight;
    expect(JSON.stringify(finished.result)).not.toContain('"ok":false');
    expect(finished.result.ok).toBe(true);
    expect(finished.result.content[0]?.text).toBe('waited 1500');
    expect(await running.exited).toBe(0);
    expect(isAlive(mcpPid)).toBe(false);
  });

  it('prints no admin key when it starts again on the same database', async () => {
    running = await startBuilt(main, stateDir);
    expect(running.banner).not.toMatch(/tpk_/);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });
});
