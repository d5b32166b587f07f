import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecRequest, ExecResult, Executor } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** How {@link describeExecutorContract} makes and uses the executor under test. */
export interface ExecutorContractSubject {
  /** Makes the executor; it is closed after the suite. */
  readonly create: () => Executor | Promise<Executor>;
  /** The directory commands run in (the executor's workspace, writable by its commands). */
  readonly workspace: string;
  /**
   * A variable name the executor passes from the request to the command (sandboxes pass only
   * what their allow-list names): the suite sets it in requests and expects the command to see it.
   */
  readonly passedVariable: string;
  /** Set to a reason to skip the whole suite (the engine could not start). */
  readonly skip?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

function size(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Waits (bounded) until `check` holds; returns whether it did. */
async function eventually(check: () => boolean, tries = 200): Promise<boolean> {
  for (let attempt = 0; attempt < tries; attempt++) {
    if (check()) return true;
    await sleep(50);
  }
  return check();
}

/**
 * True when nothing writes to `file` any more: its size stays the same over a few beats of the
 * writers' own 100 ms rhythm (a count, not a time: a live writer adds a line every beat).
 */
async function stopsGrowing(file: string): Promise<boolean> {
  const before = size(file);
  await sleep(800);
  return size(file) === before;
}

/**
 * The behaviour every {@link Executor} shares, as a vitest suite: exit codes, separate stdout
 * and stderr, stdin, the environment, the working directory, timeouts, cancellation, `kill()`,
 * process-tree kills (background jobs, `setsid` daemons), output caps keeping head and tail,
 * streaming, and `close()`. Run it from a test file with the executor to check.
 *
 * @example
 * describeExecutorContract('host', { create: () => createHostExecutor(), workspace: dir, passedVariable: 'CONTRACT_VALUE' });
 */
export function describeExecutorContract(name: string, subject: ExecutorContractSubject): void {
  const suite = subject.skip === undefined ? describe : describe.skip;
  suite(`${name} executor contract`, () => {
    let executor: Executor;
    let counter = 0;
    const base = (): Omit<ExecRequest, 'command'> => ({
      cwd: subject.workspace,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', [subject.passedVariable]: 'passed-value' },
      timeoutMs: 60_000,
      sandboxKey: `contract-${name}`,
    });
    const run = (command: string, extra: Partial<ExecRequest> = {}): Promise<ExecResult> =>
      executor.start({ ...base(), command, ...extra }).done;
    /** A fresh file name in the workspace, relative to it. */
    const fresh = (stem: string): string => `${stem}-${process.pid}-${++counter}`;
    /** A shell loop appending a line to `file` every 100 ms. */
    const ticker = (file: string): string => `while :; do echo t >> ${file}; sleep 0.1; done`;

    beforeAll(async () => {
      executor = await subject.create();
    });
    afterAll(async () => {
      await executor?.close?.();
    });

    it('reports the exit code of the command', async () => {
      expect((await run('exit 7')).exitCode).toBe(7);
      const ok = await run('true');
      expect(ok).toMatchObject({
        exitCode: 0,
        signal: null,
        timedOut: false,
        cancelled: false,
        truncated: false,
      });
    });

    it('keeps stdout and stderr apart', async () => {
      const result = await run('echo to-out; echo to-err >&2; echo more-out');
      expect(result.stdout).toBe('to-out\nmore-out\n');
      expect(result.stderr.startsWith('to-err\n')).toBe(true);
      expect(result.stderr).not.toContain('to-out');
    });

    it('passes stdin to the command and ends it', async () => {
      const result = await run('cat; echo "|end"', { stdin: 'line one\nline two' });
      expect(result.stdout).toBe('line one\nline two|end\n');
    });

    it('gives a command without stdin an empty input, so reading it does not hang', async () => {
      const result = await run('cat; echo done');
      expect(result.stdout).toBe('done\n');
    });

    it('passes the allowed request variable and none of the host environment', async () => {
      process.env['TOOLPLANE_CONTRACT_HOST_ONLY'] = 'host-secret';
      try {
        const result = await run(`echo "[$${subject.passedVariable}]"; env`);
        expect(result.stdout.startsWith('[passed-value]\n')).toBe(true);
        expect(result.stdout).not.toContain('host-secret');
      } finally {
        delete process.env['TOOLPLANE_CONTRACT_HOST_ONLY'];
      }
    });

    it('runs in the requested working directory', async () => {
      const sub = fresh('cwd');
      mkdirSync(join(subject.workspace, sub));
      const result = await run('pwd', { cwd: join(subject.workspace, sub) });
      expect(result.stdout.trim().endsWith(`/${sub}`)).toBe(true);
    });

    it('kills the command and its process tree at the timeout', async () => {
      const file = fresh('timeout-ticks');
      const result = await run(`(${ticker(file)}) & (${ticker(file)}) & sleep 60`, { timeoutMs: 1500 });
      expect(result).toMatchObject({ timedOut: true, cancelled: false, exitCode: null });
      expect(await stopsGrowing(join(subject.workspace, file))).toBe(true);
    });

    it('kills a daemon that left the process group with setsid at the timeout', async () => {
      const file = fresh('daemon-ticks');
      const result = await run(`setsid sh -c '${ticker(file)}' > /dev/null 2>&1 & sleep 60`, {
        timeoutMs: 1500,
      });
      expect(result.timedOut).toBe(true);
      expect(await eventually(() => existsSync(join(subject.workspace, file)))).toBe(true);
      expect(await stopsGrowing(join(subject.workspace, file))).toBe(true);
    });

    it('kills the process tree when the signal aborts, and reports it cancelled', async () => {
      const file = fresh('abort-ticks');
      const controller = new AbortController();
      const process = executor.start({
        ...base(),
        command: `(${ticker(file)}) & sleep 60`,
        signal: controller.signal,
      });
      expect(await eventually(() => size(join(subject.workspace, file)) > 0)).toBe(true);
      controller.abort();
      const result = await process.done;
      expect(result).toMatchObject({ cancelled: true, timedOut: false, exitCode: null });
      expect(await stopsGrowing(join(subject.workspace, file))).toBe(true);
    });

    it('reports a request whose signal is already aborted as cancelled', async () => {
      const controller = new AbortController();
      controller.abort();
      const result = await executor.start({ ...base(), command: 'sleep 60', signal: controller.signal }).done;
      expect(result).toMatchObject({ cancelled: true, exitCode: null });
    });

    it('kill() ends the tree and settles done', async () => {
      const file = fresh('kill-ticks');
      const process = executor.start({ ...base(), command: `(${ticker(file)}) & sleep 60` });
      expect(await eventually(() => size(join(subject.workspace, file)) > 0)).toBe(true);
      await process.kill();
      const result = await process.done;
      expect(result.cancelled).toBe(true);
      expect(await stopsGrowing(join(subject.workspace, file))).toBe(true);
    });

    it('kills background jobs a finished command left running', async () => {
      const file = fresh('leftover-ticks');
      const result = await run(`(${ticker(file)}) > /dev/null 2>&1 & sleep 0.3; echo started`);
      expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n' });
      expect(await stopsGrowing(join(subject.workspace, file))).toBe(true);
    });

    it('caps each stream, keeping its head and tail', async () => {
      const result = await run('seq 1 200000; seq 1 100000 >&2', { maxOutputBytes: 4000 });
      expect(result.truncated).toBe(true);
      expect(result.stdout.startsWith('1\n2\n3\n')).toBe(true);
      expect(result.stdout.endsWith('199999\n200000\n')).toBe(true);
      expect(result.stdout.length).toBeLessThan(4200);
      expect(result.stderr).toContain('bytes omitted');
      expect(result.stderr).toContain('\n100000\n');
    });

    it('streams output chunks as they arrive', async () => {
      const chunks: string[] = [];
      const result = await executor.start({
        ...base(),
        command: 'echo first; sleep 0.2; echo second >&2',
        onOutput: (chunk) => chunks.push(`${chunk.stream}:${chunk.data}`),
      }).done;
      expect(result.exitCode).toBe(0);
      expect(chunks.join('')).toContain('stdout:first\n');
      expect(chunks.join('')).toContain('stderr:second\n');
    });

    it('reads and writes files in its workspace', async () => {
      const file = fresh('written');
      const result = await run(`echo content > ${file} && cat ${file}`);
      expect(result.stdout).toBe('content\n');
      expect(readFileSync(join(subject.workspace, file), 'utf8')).toBe('content\n');
    });

    it('close() kills the commands still running', async () => {
      const own = await subject.create();
      const file = fresh('close-ticks');
      const process = own.start({ ...base(), command: `(${ticker(file)}) & sleep 60` });
      expect(await eventually(() => size(join(subject.workspace, file)) > 0)).toBe(true);
      await own.close?.();
      const result = await process.done.catch((error: unknown) => error);
      expect(result).toBeDefined();
      expect(await stopsGrowing(join(subject.workspace, file))).toBe(true);
    });
  });
}
