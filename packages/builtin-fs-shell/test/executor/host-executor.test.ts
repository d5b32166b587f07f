import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, makeTempDir } from '../helpers/index.js';
import { createHostExecutor } from '../../src/executor/host-executor.js';
import { isAlive } from '../../src/executor/process-tree.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

// A command that starts a grandchild (in the same group) and a great-grandchild that moves to
// its own session, records their pids, and then waits.
const TREE = `sh -c 'sleep 300 & echo $! > g1.pid; setsid sh -c "sleep 300 & echo \\$! > g2.pid; wait" & wait' & wait`;

async function pids(dir: string): Promise<number[]> {
  const ok = await eventually(async () => {
    const files = await Promise.all(
      ['g1.pid', 'g2.pid'].map((name) => readFile(join(dir, name), 'utf8').catch(() => '')),
    );
    return files.every((text) => text.trim().length > 0);
  });
  if (!ok) throw new Error('the test tree did not start');
  return Promise.all(
    ['g1.pid', 'g2.pid'].map(async (name) => Number((await readFile(join(dir, name), 'utf8')).trim())),
  );
}

describe('createHostExecutor', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const executor = createHostExecutor({ killGraceMs: 300 });
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(async () => {
    await executor.close?.();
    await cleanup();
  });

  it('runs a command with the given cwd and env, separating stdout and stderr', async () => {
    const result = await executor.start({
      command: 'pwd; echo "$GREETING"; echo oops >&2; exit 3',
      cwd: dir,
      env: { ...env, GREETING: 'hello' },
    }).done;
    expect(result.stdout).toBe(`${dir}\nhello\n`);
    expect(result.stderr).toBe('oops\n');
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(result.cancelled).toBe(false);
  });

  it('passes nothing of the host environment beyond what the request gives', async () => {
    process.env.TP_TEST_SECRET_VALUE = `fake-${Math.random().toString(36).slice(2)}`;
    try {
      const result = await executor.start({ command: 'echo "[$TP_TEST_SECRET_VALUE]"', cwd: dir, env }).done;
      expect(result.stdout).toBe('[]\n');
    } finally {
      delete process.env.TP_TEST_SECRET_VALUE;
    }
  });

  it('feeds stdin', async () => {
    const result = await executor.start({ command: 'tr a-z A-Z', cwd: dir, env, stdin: 'shout\n' }).done;
    expect(result.stdout).toBe('SHOUT\n');
  });

  it('keeps the head and the tail of a huge output', async () => {
    const result = await executor.start({
      command: 'echo START; seq 1 200000; echo END',
      cwd: dir,
      env,
      maxOutputBytes: 4096,
    }).done;
    expect(result.truncated).toBe(true);
    expect(result.stdout.startsWith('START\n1\n2\n')).toBe(true);
    expect(result.stdout.endsWith('200000\nEND\n')).toBe(true);
    expect(result.stdout).toMatch(/bytes omitted/);
    expect(result.stdout.length).toBeLessThan(4096 + 100);
  });

  it('streams output chunks through onOutput', async () => {
    const chunks: string[] = [];
    await executor.start({
      command: 'echo one; echo two >&2',
      cwd: dir,
      env,
      onOutput: (chunk) => chunks.push(`${chunk.stream}:${chunk.data}`),
    }).done;
    expect(chunks.join('')).toContain('stdout:one');
    expect(chunks.join('')).toContain('stderr:two');
  });

  it('kills the whole tree, grandchildren included, on timeout', async () => {
    const started = executor.start({ command: TREE, cwd: dir, env, timeoutMs: 4000 });
    const [g1, g2] = await pids(dir);
    const result = await started.done;
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(isAlive(g1 as number)).toBe(false);
    expect(isAlive(g2 as number)).toBe(false);
  });

  it('kills the whole tree on abort', async () => {
    const controller = new AbortController();
    const started = executor.start({ command: TREE, cwd: dir, env, signal: controller.signal });
    const [g1, g2] = await pids(dir);
    controller.abort();
    const result = await started.done;
    expect(result.cancelled).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(isAlive(g1 as number)).toBe(false);
    expect(isAlive(g2 as number)).toBe(false);
  });

  it('kills the whole tree on kill(), including a child that ignores SIGTERM', async () => {
    const started = executor.start({ command: `trap "" TERM; ${TREE}`, cwd: dir, env });
    const [g1, g2] = await pids(dir);
    await started.kill();
    const result = await started.done;
    expect(result.cancelled).toBe(true);
    expect(isAlive(g1 as number)).toBe(false);
    expect(isAlive(g2 as number)).toBe(false);
    expect(started.pid === undefined || !isAlive(started.pid)).toBe(true);
  });

  it('returns when the shell exits even if a background job holds the output pipe, and ends that job', async () => {
    const result = await executor.start({ command: 'sleep 300 & echo $! > bg.pid; echo done', cwd: dir, env })
      .done;
    expect(result.stdout).toBe('done\n');
    const pid = Number((await readFile(join(dir, 'bg.pid'), 'utf8')).trim());
    expect(isAlive(pid)).toBe(false);
  });

  it('rejects when the working directory does not exist', async () => {
    await expect(executor.start({ command: 'true', cwd: join(dir, 'missing'), env }).done).rejects.toThrow();
  });
});
