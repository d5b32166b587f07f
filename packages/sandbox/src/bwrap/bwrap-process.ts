import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Readable, Writable } from 'node:stream';
import type { ExecProcess, ExecRequest, ExecResult } from '@toolplane/core';
import { sandboxError } from '../errors.js';
import type { ResolvedLimits } from '../limits.js';
import { appendNotes, sandboxNotes } from '../output/notes.js';
import { OutputCapture } from '../output/output-capture.js';
import type { CommandCgroup } from './cgroup-limits.js';

/** How one jailed command is started. */
export interface BwrapLaunch {
  /** argv: the program, then its arguments (setpriv, bwrap, the command). */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly limits: ResolvedLimits;
  readonly cgroup: CommandCgroup | undefined;
  /** Gives the cgroup back once the command's processes are gone. */
  readonly releaseCgroup?: (cgroup: CommandCgroup) => void;
  readonly networkNone: boolean;
  readonly refusedSince?: (since: number) => string[];
  /** The bwrap program, for messages. */
  readonly bwrapPath: string;
  /**
   * Bridges the network allow-list into the jail once it exists (its first process's pid,
   * outside view); bwrap waits on fd 4 until it is done. Returns what undoes it.
   */
  readonly bridge?: (jailPid: number) => Promise<() => void>;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

/** What bwrap prints when it cannot set a jail up (a mount source missing, a bad option...). */
const BWRAP_SETUP_FAILED = /^bwrap: /m;

/** Why bwrap could not set the jail up, from what it printed, as an error a person can act on. */
export function bwrapSetupError(stderr: string, exitCode: number | null, bwrapPath = 'bwrap'): Error {
  const text = stderr.trim().split('\n').slice(-3).join(' ');
  if (
    exitCode === 127 ||
    (/No such file or directory/i.test(text) && text.includes(bwrapPath) && !text.startsWith('bwrap:'))
  ) {
    return sandboxError(
      'SANDBOX_BWRAP_MISSING',
      `${bwrapPath} could not be run (${text}): install bubblewrap (\`apt-get install bubblewrap\`) or pass bwrapPath`,
      { details: { stderr: text, exitCode } },
    );
  }
  if (
    /namespace|uid map|gid map|setting up uid|Operation not permitted|No permissions|unprivileged_userns|user\.max_user_namespaces/i.test(
      text,
    )
  ) {
    return sandboxError(
      'SANDBOX_NAMESPACES_DENIED',
      `bubblewrap could not create its namespaces (${text}): allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0; on Ubuntu 24.04+ an AppArmor profile for bwrap or kernel.apparmor_restrict_unprivileged_userns=0), or use the docker executor`,
      { details: { stderr: text, exitCode } },
    );
  }
  return sandboxError(
    'SANDBOX_START_FAILED',
    `bubblewrap could not start the jail (exit ${exitCode}): ${text}`,
    {
      details: { stderr: text, exitCode },
    },
  );
}

/** One command in a bubblewrap jail. */
export class BwrapProcess implements ExecProcess {
  readonly pid: number | undefined;
  readonly done: Promise<ExecResult>;
  private readonly child: ChildProcess;
  private readonly launch: BwrapLaunch;
  private timedOut = false;
  private cancelled = false;
  private exited = false;
  private killing: Promise<void> | undefined;
  private readonly started = performance.now();

  constructor(request: ExecRequest, launch: BwrapLaunch) {
    this.launch = launch;
    this.oomBaseline = launch.cgroup?.oomKills() ?? 0;
    const [program, ...args] = launch.argv as [string, ...string[]];
    this.child = spawn(program, args, {
      env: { ...launch.env },
      detached: true,
      // fd 3: bwrap's --info-fd, written once the jail is set up; fd 4: its --block-fd.
      stdio:
        launch.bridge || launch.cgroup
          ? ['pipe', 'pipe', 'pipe', 'pipe', 'pipe']
          : ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    this.pid = this.child.pid;
    this.done = this.watch(request);
    this.done.catch(() => undefined);
  }

  private watch(request: ExecRequest): Promise<ExecResult> {
    const { launch, child } = this;
    const stdout = new OutputCapture(launch.maxOutputBytes);
    const stderr = new OutputCapture(launch.maxOutputBytes);
    let jailReady = false;
    let info = '';
    let unbridge: (() => void) | undefined;
    let bridgeError: unknown;
    let bridging = false;
    (child.stdio[3] as Readable | null)?.on('data', (chunk: Buffer) => {
      jailReady = true;
      info += chunk.toString();
      const bridge = launch.bridge;
      const match = /"child-pid"\s*:\s*(\d+)/.exec(info);
      if ((!bridge && !launch.cgroup) || !match || bridging) return;
      bridging = true;
      const block = child.stdio[4] as Writable | null;
      const jailPid = Number(match[1]);
      // The jail's first process waits on the block fd before it forks the command: joined to
      // the cgroup now, everything the command starts is in it (no wrapper process needed).
      if (launch.cgroup && !launch.cgroup.join(jailPid)) {
        bridgeError = sandboxError(
          'SANDBOX_START_FAILED',
          'the command could not be put in its cgroup (pids and memory limits); check that /sys/fs/cgroup is writable',
        );
        void this.kill();
        return;
      }
      if (!bridge) {
        block?.end('go');
        return;
      }
      bridge(jailPid).then(
        (undo) => {
          unbridge = undo;
          block?.end('go');
        },
        (error: unknown) => {
          bridgeError = error;
          void this.kill();
        },
      );
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = stdout.push(chunk, request.onOutput !== undefined);
      if (request.onOutput && text.length > 0) request.onOutput({ stream: 'stdout', data: text });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = stderr.push(chunk, request.onOutput !== undefined);
      if (request.onOutput && text.length > 0) request.onOutput({ stream: 'stderr', data: text });
    });
    // Node's pipes for fds 3 and 4 are socket pairs: bwrap closing its end can read as a reset.
    for (const stream of child.stdio) stream?.on('error', () => undefined);
    if (child.pid !== undefined) child.stdin?.end(request.stdin ?? '');
    return new Promise<ExecResult>((resolve, reject) => {
      let exitCode: number | null = null;
      let exitSignal: string | null = null;
      const onAbort = (): void => {
        this.cancelled = true;
        void this.kill();
      };
      const timer = setTimeout(() => {
        this.timedOut = true;
        void this.kill();
      }, launch.timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
      };
      child.once('error', (error: NodeJS.ErrnoException) => {
        cleanup();
        this.giveBackCgroup();
        reject(
          error.code === 'ENOENT'
            ? sandboxError(
                'SANDBOX_BWRAP_MISSING',
                `${launch.argv[0]} was not found: install bubblewrap (\`apt-get install bubblewrap\`) or pass bwrapPath`,
                {
                  cause: error,
                },
              )
            : error,
        );
      });
      child.once('exit', (code, signal) => {
        this.exited = true;
        exitCode = code;
        exitSignal = signal;
      });
      child.once('close', () => {
        cleanup();
        void (async () => {
          // Whatever is left in the command's cgroup goes too (the jail's PID namespace ended
          // with bwrap, so this is a second net).
          await this.sweepCgroup();
          unbridge?.();
          if (bridgeError !== undefined) {
            this.giveBackCgroup();
            // the jail died setting up before it could be joined: what bwrap said is the cause
            reject(
              BWRAP_SETUP_FAILED.test(stderr.text())
                ? bwrapSetupError(stderr.text(), exitCode, launch.bwrapPath)
                : bridgeError,
            );
            return;
          }
          const oomKilled = (launch.cgroup?.oomKills() ?? 0) > this.oomBaseline;
          this.giveBackCgroup();
          const err = stderr.text();
          if (!jailReady && !this.timedOut && !this.cancelled) {
            this.giveBackCgroup();
            reject(bwrapSetupError(err, exitCode, launch.bwrapPath));
            return;
          }
          const killed = this.timedOut || this.cancelled;
          const code = killed ? null : exitCode;
          const signal = killed ? 'SIGKILL' : exitSignal;
          const out = stdout.text();
          const notes = sandboxNotes({
            stdout: out,
            stderr: err,
            exitCode: code,
            timedOut: this.timedOut,
            timeoutMs: launch.timeoutMs,
            pidsLimit: launch.cgroup ? launch.limits.pids : undefined,
            memoryBytes: launch.cgroup ? launch.limits.memoryBytes : undefined,
            networkNone: launch.networkNone,
            oomKilled,
            ...(launch.refusedSince ? { refusedHosts: launch.refusedSince(this.started) } : {}),
          });
          resolve({
            exitCode: code,
            signal,
            stdout: out,
            stderr: appendNotes(err, notes),
            timedOut: this.timedOut,
            cancelled: this.cancelled && !this.timedOut,
            truncated: stdout.dropped > 0 || stderr.dropped > 0,
            durationMs: performance.now() - this.started,
            ...(notes.length > 0 ? { notes } : {}),
          });
        })();
      });
      if (child.pid === undefined) return;
      if (request.signal?.aborted) onAbort();
      else request.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private cgroupGiven = false;
  private readonly oomBaseline: number;

  private giveBackCgroup(): void {
    const { cgroup } = this.launch;
    if (!cgroup || this.cgroupGiven) return;
    this.cgroupGiven = true;
    if (this.launch.releaseCgroup) this.launch.releaseCgroup(cgroup);
    else cgroup.remove();
  }

  private async sweepCgroup(): Promise<void> {
    const cgroup = this.launch.cgroup;
    if (!cgroup) return;
    // The jail's last process may still be exiting when bwrap's pipes close: poll briefly.
    for (let pass = 0; pass < 250; pass++) {
      const members = cgroup.members();
      if (members.length === 0) return;
      for (const pid of members) send(pid, 'SIGKILL');
      await sleep(2);
    }
  }

  kill(): Promise<void> {
    if (!this.timedOut) this.cancelled = true;
    const pid = this.pid;
    if (pid === undefined) return Promise.resolve();
    this.killing ??= (async () => {
      // SIGKILL to bwrap's group: the jail's init dies with it (--die-with-parent), and with
      // the init of a PID namespace every process in it.
      send(-pid, 'SIGKILL');
      send(pid, 'SIGKILL');
      for (const member of this.launch.cgroup?.members() ?? []) send(member, 'SIGKILL');
    })();
    return this.killing.then(() =>
      this.done.then(
        () => undefined,
        () => undefined,
      ),
    );
  }

  /** True once bwrap itself exited. */
  get hasExited(): boolean {
    return this.exited;
  }
}
