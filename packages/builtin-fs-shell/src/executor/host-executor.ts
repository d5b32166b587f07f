import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import type { ExecProcess, ExecRequest, ExecResult, Executor } from '@toolplane/core';
import { HeadTailBuffer } from './head-tail-buffer.js';
import { isAlive, listCommandProcesses, signalTree, startTicksOf } from './process-tree.js';

/**
 * The variable each command's environment is marked with (a fresh random value per command), so
 * its processes are found even after they left its tree and group (a daemon that forked twice and
 * called `setsid`).
 */
export const PROCESS_MARK_VARIABLE = 'TOOLPLANE_PROCESS_MARK';

/** Options of {@link createHostExecutor}. */
export interface HostExecutorOptions {
  /** The shell (default `/bin/sh`), run as `shell -c command`. */
  readonly shell?: string;
  /** Time between SIGTERM and SIGKILL when a tree is killed (default 1000 ms). */
  readonly killGraceMs?: number;
  /**
   * After the shell exits, how long its output pipes may stay open (held by a background
   * grandchild) before the leftover process group is killed (default 250 ms).
   */
  readonly drainMs?: number;
  /** Output kept per stream when a request sets no `maxOutputBytes` (default 1 MiB). */
  readonly defaultMaxOutputBytes?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

async function waitGone(pids: readonly number[], limitMs: number): Promise<boolean> {
  const until = Date.now() + limitMs;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < until) {
    await sleep(20);
    alive = alive.filter(isAlive);
  }
  return alive.length === 0;
}

class HostProcess implements ExecProcess {
  readonly pid: number | undefined;
  readonly done: Promise<ExecResult>;
  private readonly child: ChildProcess;
  private readonly options: Required<HostExecutorOptions>;
  private killing: Promise<void> | undefined;
  private exited = false;
  private known = new Set<number>();
  private timedOut = false;
  private cancelled = false;
  /** `NAME=value` in the environment of every process of this command. */
  private readonly mark = `${PROCESS_MARK_VARIABLE}=${randomBytes(12).toString('hex')}`;
  /** When the shell started: marked processes older than it are not this command's. */
  private readonly startTicks: number | undefined;

  constructor(request: ExecRequest, options: Required<HostExecutorOptions>) {
    this.options = options;
    const started = performance.now();
    this.child = spawn(options.shell, ['-c', request.command], {
      cwd: request.cwd,
      env: { ...request.env, [PROCESS_MARK_VARIABLE]: this.mark.slice(PROCESS_MARK_VARIABLE.length + 1) },
      // Its own process group, so the whole tree can be signalled at once.
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.pid = this.child.pid;
    // The shell cannot have been reaped yet (that happens on the event loop), so this is its entry.
    this.startTicks = this.pid === undefined ? undefined : startTicksOf(this.pid);
    const maxBytes = request.maxOutputBytes ?? options.defaultMaxOutputBytes;
    const stdout = new HeadTailBuffer(maxBytes);
    const stderr = new HeadTailBuffer(maxBytes);
    const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
    const onOutput = request.onOutput;
    this.child.stdout?.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      if (onOutput) onOutput({ stream: 'stdout', data: decoders.stdout.write(chunk) });
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      if (onOutput) onOutput({ stream: 'stderr', data: decoders.stderr.write(chunk) });
    });
    this.child.stdin?.on('error', () => {
      // the command did not read its input; nothing to do
    });
    if (this.child.pid !== undefined) this.child.stdin?.end(request.stdin ?? '');

    this.done = new Promise<ExecResult>((resolve, reject) => {
      let exitCode: number | null = null;
      let exitSignal: string | null = null;
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        this.cancelled = true;
        void this.kill();
      };
      const cleanup = (): void => {
        if (timer) clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
      };
      const finish = async (): Promise<void> => {
        if (settled) return;
        settled = true;
        cleanup();
        if (this.killing) await this.killing;
        // Whatever is left in the group (background jobs of a finished command) goes too.
        if (this.pid !== undefined) {
          const leftovers = [...this.known, ...this.members(this.pid)];
          signalTree(this.pid, leftovers, 'SIGKILL');
          await waitGone(leftovers, 2000);
        }
        this.child.stdout?.destroy();
        this.child.stderr?.destroy();
        resolve({
          exitCode,
          signal: exitSignal,
          stdout: stdout.toString(),
          stderr: stderr.toString(),
          timedOut: this.timedOut,
          cancelled: this.cancelled && !this.timedOut,
          truncated: stdout.dropped > 0 || stderr.dropped > 0,
          durationMs: performance.now() - started,
        });
      };
      this.child.once('error', (error) => {
        if (this.child.pid !== undefined) return; // reported through exit/close
        settled = true;
        cleanup();
        reject(error);
      });
      this.child.once('exit', (code, signal) => {
        this.exited = true;
        exitCode = code;
        exitSignal = signal;
        setTimeout(() => void finish(), this.options.drainMs).unref();
      });
      this.child.once('close', () => void finish());
      if (this.child.pid === undefined) return;
      if (request.timeoutMs !== undefined && request.timeoutMs > 0) {
        timer = setTimeout(() => {
          this.timedOut = true;
          void this.kill();
        }, request.timeoutMs);
      }
      if (request.signal?.aborted) onAbort();
      else request.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The command's processes: descendants, its group, and those carrying its mark. */
  private members(pid: number): number[] {
    return listCommandProcesses(pid, this.mark, this.startTicks);
  }

  kill(): Promise<void> {
    if (!this.timedOut) this.cancelled = true;
    if (this.pid === undefined) return Promise.resolve();
    const pid = this.pid;
    this.killing ??= (async () => {
      for (const member of this.members(pid)) this.known.add(member);
      const tree = [pid, ...this.known];
      signalTree(pid, tree, 'SIGTERM');
      if (!(await waitGone(tree, this.options.killGraceMs))) {
        for (const member of this.members(pid)) this.known.add(member);
        signalTree(pid, [pid, ...this.known], 'SIGKILL');
        await waitGone([pid, ...this.known], 5000);
      }
    })();
    return this.exited ? this.killing : this.killing.then(() => this.done.then(() => undefined));
  }
}

/**
 * An {@link Executor} that runs commands on this machine with `sh -c`, each in its own process
 * group; a timeout, an abort or `kill()` ends the whole tree (SIGTERM, then SIGKILL after a
 * grace period). Output is capped per stream, keeping head and tail. It confines nothing: pair
 * it with the policy package, or use a sandbox executor.
 *
 * @example
 * const executor = createHostExecutor();
 * const result = await executor.start({ command: 'echo hi', cwd: '/tmp', env: { PATH: process.env.PATH ?? '' } }).done;
 */
export function createHostExecutor(options: HostExecutorOptions = {}): Executor {
  const resolved: Required<HostExecutorOptions> = {
    shell: options.shell ?? '/bin/sh',
    killGraceMs: options.killGraceMs ?? 1000,
    drainMs: options.drainMs ?? 250,
    defaultMaxOutputBytes: options.defaultMaxOutputBytes ?? 1024 * 1024,
  };
  const running = new Set<HostProcess>();
  return {
    kind: 'host',
    start(request) {
      const process = new HostProcess(request, resolved);
      running.add(process);
      void process.done.finally(() => running.delete(process)).catch(() => {});
      return process;
    },
    async close() {
      await Promise.all([...running].map((process) => process.kill()));
    },
  };
}
