import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import type { ExecProcess, ExecRequest, ExecResult } from '@toolplane/core';
import type Docker from 'dockerode';
import type { ResolvedLimits } from '../limits.js';
import { appendNotes, sandboxNotes } from '../output/notes.js';
import { OutputCapture } from '../output/output-capture.js';
import type { ContainerPool, SandboxContainer } from './container-pool.js';
import { engineError } from './engine-errors.js';
import { KILL_COMMAND, PROCESS_MARK_VARIABLE, RUN_COMMAND } from './in-container-scripts.js';

/** What a command needs from its executor. */
export interface DockerCommandSettings {
  readonly docker: Docker;
  readonly pool: ContainerPool;
  readonly image: string;
  readonly user: string;
  readonly limits: ResolvedLimits;
  readonly networkNone: boolean;
  readonly drainMs: number;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly workingDir: string;
  readonly env: Readonly<Record<string, string>>;
  /** Hosts the proxy refused since `since` (ms, performance clock), for the notes. */
  readonly refusedSince?: (since: number) => string[];
}

/** The container stopped before the command could start in it. */
class StoppedContainer extends Error {}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms).unref());

/** One command run as a `docker exec` in its session's container. */
export class DockerCommand implements ExecProcess {
  readonly pid: number | undefined = undefined;
  readonly done: Promise<ExecResult>;
  private readonly markValue = randomBytes(12).toString('hex');
  private readonly settings: DockerCommandSettings;
  private readonly request: ExecRequest;
  private readonly key: string;
  private box: SandboxContainer | undefined;
  private exec: Docker.Exec | undefined;
  private killing: Promise<void> | undefined;
  private killRequested = false;
  private timedOut = false;
  private cancelled = false;
  private finished = false;
  private containerLost = false;
  private readonly started = performance.now();

  constructor(request: ExecRequest, key: string, settings: DockerCommandSettings) {
    this.request = request;
    this.key = key;
    this.settings = settings;
    this.done = this.run();
    this.done.catch(() => undefined);
  }

  private async run(): Promise<ExecResult> {
    const { request, settings } = this;
    let stdout = new OutputCapture(settings.maxOutputBytes);
    let stderr = new OutputCapture(settings.maxOutputBytes);
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      this.cancelled = true;
      void this.kill();
    };
    if (request.signal?.aborted) this.cancelled = true;
    else request.signal?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => {
      this.timedOut = true;
      void this.kill();
    }, settings.timeoutMs);
    // The pool calls it when it removes the container (release, close, idle): the result says so.
    const kill = (): Promise<void> => {
      if (!this.finished && !this.timedOut) this.containerLost = true;
      return this.kill();
    };
    try {
      if (this.cancelled) return this.result(null, 'SIGKILL', stdout, stderr);
      // A container whose processes were all killed from inside (`kill -9 -1`) has stopped:
      // it is discarded and the command tried once more in a new one.
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) {
          stdout = new OutputCapture(settings.maxOutputBytes);
          stderr = new OutputCapture(settings.maxOutputBytes);
        }
        const box = await settings.pool.acquire(this.key);
        this.box = box;
        box.running++;
        box.kills.add(kill);
        try {
          if (this.killRequested) return this.result(null, 'SIGKILL', stdout, stderr);
          const exitCode = await this.runExec(box, stdout, stderr);
          // The exec's stream ends with its shell; the kill may still be at work on what the
          // command left (orphans are found on a later pass): `done` waits for it.
          if (this.killing) await this.killing;
          if (exitCode === 126 && !box.alive && /OCI runtime exec failed|stopped state/.test(stdout.text())) {
            throw new StoppedContainer();
          }
          if (!box.alive && !this.killRequested) this.containerLost = true;
          const killed = this.killRequested && (exitCode === 137 || exitCode === null);
          return this.result(killed ? null : exitCode, killed ? 'SIGKILL' : null, stdout, stderr);
        } catch (error) {
          if (attempt > 0 || !(error instanceof StoppedContainer)) throw error;
        } finally {
          box.running--;
          box.lastUsed = Date.now();
          box.kills.delete(kill);
        }
      }
    } finally {
      this.finished = true;
      clearTimeout(timer);
      timer = undefined;
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async runExec(
    box: SandboxContainer,
    stdout: OutputCapture,
    stderr: OutputCapture,
  ): Promise<number | null> {
    const { request, settings } = this;
    const hasStdin = request.stdin !== undefined && request.stdin.length > 0;
    const env = { ...settings.env, [PROCESS_MARK_VARIABLE]: this.markValue };
    let exec: Docker.Exec;
    let stream: NodeJS.ReadWriteStream;
    try {
      exec = await box.container.exec({
        Cmd: ['/bin/sh', '-c', RUN_COMMAND, 'toolplane-sandbox', request.command],
        Env: Object.entries(env).map(([name, value]) => `${name}=${value}`),
        WorkingDir: settings.workingDir,
        User: settings.user,
        AttachStdout: true,
        AttachStderr: true,
        AttachStdin: hasStdin,
        Tty: false,
      });
      this.exec = exec;
      stream = (await exec.start({ hijack: true, stdin: hasStdin })) as NodeJS.ReadWriteStream;
    } catch (error) {
      const detail = String(
        (error as { json?: { message?: string } }).json?.message ?? (error as Error).message,
      );
      if (!box.alive || /is not running|No such container/i.test(detail)) {
        await settings.pool.discard(box);
        throw new StoppedContainer();
      }
      throw engineError(error, 'starting the command in the sandbox container', settings.image);
    }
    const onOutput = request.onOutput;
    const sink = (capture: OutputCapture, name: 'stdout' | 'stderr'): Writable =>
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          const text = capture.push(chunk, onOutput !== undefined);
          if (onOutput && text.length > 0) onOutput({ stream: name, data: text });
          callback();
        },
      });
    settings.docker.modem.demuxStream(stream, sink(stdout, 'stdout'), sink(stderr, 'stderr'));
    if (hasStdin) {
      stream.write(request.stdin as string);
      // Half-close: the command sees the end of its input, its output still flows back.
      stream.end();
    }
    if (this.killRequested) void this.killInside();
    await this.streamEnd(stream, exec);
    return this.exitCode(exec);
  }

  /**
   * Settles when the output stream ends, or when the command has exited and its output stayed
   * open `drainMs` longer (a process that left the command's mark holds it): a docker exec
   * stream can stay open for as long as any process holds its pipes.
   */
  private streamEnd(stream: NodeJS.ReadWriteStream, exec: Docker.Exec): Promise<void> {
    return new Promise<void>((resolve) => {
      let settled = false;
      const finish = (): void => {
        if (settled) return;
        settled = true;
        resolve();
      };
      stream.once('end', finish);
      stream.once('close', finish);
      stream.once('error', finish);
      void (async () => {
        let wait = 200;
        while (!settled) {
          await sleep(wait);
          wait = Math.min(wait * 2, 2000);
          if (settled) return;
          const info = await exec.inspect().catch(() => undefined);
          if (info?.Running) continue;
          if (!info && this.box?.alive) continue;
          await sleep(this.settings.drainMs);
          if (settled) return;
          (stream as unknown as { destroy?: () => void }).destroy?.();
          finish();
        }
      })();
    });
  }

  /** The exit code, from `exec.inspect` (the stream does not carry it); it may lag the stream's end. */
  private async exitCode(exec: Docker.Exec): Promise<number | null> {
    for (let attempt = 0; attempt < 40; attempt++) {
      const info = await exec.inspect().catch(() => undefined);
      if (!info) return null;
      if (!info.Running && info.ExitCode !== null && info.ExitCode !== undefined) return info.ExitCode;
      await sleep(Math.min(5 * 2 ** attempt, 100));
    }
    return null;
  }

  private result(
    exitCode: number | null,
    signal: string | null,
    stdout: OutputCapture,
    stderr: OutputCapture,
  ): ExecResult {
    const { settings } = this;
    const out = stdout.text();
    const err = stderr.text();
    const notes = sandboxNotes({
      stdout: out,
      stderr: err,
      exitCode,
      timedOut: this.timedOut,
      timeoutMs: settings.timeoutMs,
      pidsLimit: settings.limits.pids,
      memoryBytes: settings.limits.memoryBytes,
      networkNone: settings.networkNone,
      ...(settings.refusedSince ? { refusedHosts: settings.refusedSince(this.started) } : {}),
    });
    if (this.containerLost) {
      notes.splice(
        0,
        notes.length,
        '[sandbox] the sandbox container was removed while the command ran (its session was released or closed, or the container was reset); run the command again',
      );
    }
    return {
      exitCode,
      signal,
      stdout: out,
      stderr: appendNotes(err, notes),
      timedOut: this.timedOut,
      cancelled: this.cancelled && !this.timedOut,
      truncated: stdout.dropped > 0 || stderr.dropped > 0,
      durationMs: performance.now() - this.started,
      ...(notes.length > 0 ? { notes } : {}),
    };
  }

  /** Kills the command's processes inside the container; a container where that fails is discarded. */
  private killInside(): Promise<void> {
    const box = this.box;
    if (!box || !this.exec) return Promise.resolve();
    const { settings } = this;
    const attempt = async (): Promise<boolean> => {
      let ok = false;
      try {
        const killer = await box.container.exec({
          Cmd: [
            '/bin/sh',
            '-c',
            KILL_COMMAND,
            'toolplane-kill',
            `${PROCESS_MARK_VARIABLE}=${this.markValue}`,
          ],
          User: settings.user,
          AttachStdout: true,
          AttachStderr: true,
        });
        const stream = (await killer.start({ hijack: true, stdin: false })) as NodeJS.ReadableStream;
        stream.resume();
        await Promise.race([
          new Promise<void>((resolve) => {
            stream.once('end', resolve);
            stream.once('close', resolve);
            stream.once('error', resolve);
          }),
          sleep(10_000),
        ]);
        // The exit code can lag the end of the stream: ask until the exec says it stopped.
        for (let attempt = 0; attempt < 40; attempt++) {
          const info = await killer.inspect();
          if (info.Running === false) {
            ok = info.ExitCode === 0;
            break;
          }
          await sleep(Math.min(5 * 2 ** attempt, 100));
        }
      } catch {
        ok = false;
      }
      return ok;
    };
    return (async () => {
      // A kill that could not run twice (a fork bomb filled the pids limit) or did not finish:
      // the container cannot be trusted to be clean, so it goes; the key gets a new one.
      if (!(await attempt()) && !(await attempt())) await settings.pool.discard(box);
    })();
  }

  kill(): Promise<void> {
    if (!this.timedOut) this.cancelled = true;
    this.killRequested = true;
    if (this.finished) return Promise.resolve();
    if (this.exec) this.killing ??= this.killInside();
    return (this.killing ?? Promise.resolve()).then(() =>
      this.done.then(
        () => undefined,
        () => undefined,
      ),
    );
  }
}
