import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExecProcess, ExecRequest, Executor } from '@toolplane/core';
import { SANDBOX_FIXED_ENV, sandboxEnvironment } from '../environment.js';
import { failedProcess } from '../failed-process.js';
import { sandboxError } from '../errors.js';
import type { NetworkAllowList } from '../network/allow-list-options.js';
import { type AllowListProxy, startAllowListProxy } from '../network/allow-list-proxy.js';
import { proxyEnvironment, startNamespaceForwarder } from '../network/namespace-forwarder.js';
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_SANDBOX_TIMEOUT_MS, resolveLimits } from '../limits.js';
import { mapCwd } from '../workspace/map-cwd.js';
import { ProtectedPlaceholders } from '../workspace/placeholders.js';
import { DEFAULT_PROTECTED_PATHS } from '../workspace/protected-paths.js';
import { JAIL_WORKSPACE, bwrapArguments } from './bwrap-arguments.js';
import { type BwrapExecutorOptions, DEFAULT_SYSTEM_PATHS } from './bwrap-options.js';
import { BwrapProcess } from './bwrap-process.js';
import { CgroupPool, type CommandCgroup } from './cgroup-limits.js';
import { type Launched, MOUNT_ATTEMPTS, relaunchWhenSourceVanished } from './relaunch.js';

/** An {@link Executor} backed by bubblewrap jails. */
export interface BwrapExecutor extends Executor {
  readonly kind: 'bwrap';
  close(): Promise<void>;
}

function parseUser(user: string): { uid: number; gid: number } {
  const [uid, gid] = user.split(':');
  const parsedUid = Number(uid);
  const parsedGid = gid === undefined ? parsedUid : Number(gid);
  if (!Number.isInteger(parsedUid) || !Number.isInteger(parsedGid) || parsedUid <= 0 || parsedGid <= 0) {
    throw sandboxError(
      'SANDBOX_START_FAILED',
      `user "${user}" is not an unprivileged uid:gid; pass e.g. "65534:65534"`,
    );
  }
  return { uid: parsedUid, gid: parsedGid };
}

/**
 * An {@link Executor} that runs each command in a fresh bubblewrap jail: system directories
 * read-only, the workspace read-write at `/workspace` (protected paths read-only), a tmpfs
 * `/tmp`, new user/PID/network/IPC/UTS namespaces, killed with its parent. Started by root, it
 * first drops to an unprivileged user (65534) and puts the command in a cgroup with the pids
 * and memory limits. A timeout, an abort or `kill()` ends every process of the jail.
 *
 * @example
 * const executor = createBwrapExecutor({ workspace: '/srv/project' });
 * const result = await executor.start({ command: 'ls', cwd: '/srv/project', env: {} }).done;
 */
export function createBwrapExecutor(options: BwrapExecutorOptions): BwrapExecutor {
  const workspace = resolve(options.workspace);
  const limits = resolveLimits(options.limits);
  const asRoot = process.getuid?.() === 0;
  const dropTo = asRoot ? parseUser(options.user ?? '65534:65534') : undefined;
  const inside = dropTo ?? { uid: process.getuid?.() ?? 65534, gid: process.getgid?.() ?? 65534 };
  const bwrapPath = options.bwrapPath ?? 'bwrap';
  const systemPaths = options.systemPaths ?? DEFAULT_SYSTEM_PATHS;
  const protectedPaths = options.protectedPaths ?? DEFAULT_PROTECTED_PATHS;
  const envAllowList = options.envAllowList ?? [];
  const fixedEnv = { ...SANDBOX_FIXED_ENV, ...options.env };
  const running = new Set<BwrapProcess>();
  const cgroups = asRoot
    ? new CgroupPool(`${process.pid}-${randomBytes(4).toString('hex')}`, limits)
    : undefined;
  const allowList = options.network !== undefined && options.network !== 'none' ? options.network : undefined;
  let proxy: Promise<AllowListProxy> | undefined;
  let refused: AllowListProxy | undefined;
  const proxyFor = (list: NetworkAllowList): Promise<AllowListProxy> => {
    proxy ??= startAllowListProxy(
      join(tmpdir(), `toolplane-proxy-${process.pid}-${randomBytes(6).toString('hex')}.sock`),
      list,
    );
    void proxy.then(
      (started) => {
        refused = started;
      },
      () => undefined,
    );
    return proxy;
  };
  const placeholders = new ProtectedPlaceholders(workspace, protectedPaths);
  let closed = false;

  return {
    kind: 'bwrap',
    start(request: ExecRequest): ExecProcess {
      if (closed)
        return failedProcess(sandboxError('SANDBOX_CLOSED', 'the bwrap sandbox executor is closed'));
      let workingDir: string;
      try {
        if (!statSync(workspace).isDirectory()) throw new Error('not a directory');
      } catch {
        return failedProcess(
          sandboxError(
            'SANDBOX_WORKSPACE_INVALID',
            `the sandbox workspace ${workspace} is not an existing directory`,
          ),
        );
      }
      try {
        workingDir = mapCwd(workspace, request.cwd, JAIL_WORKSPACE);
      } catch (error) {
        return failedProcess(error);
      }
      // One jail; launched again when a protected path's placeholder, made by another process
      // and found here, was removed by it before bwrap mounted it (the next layout makes its own).
      const launch = (): Launched => {
        // Held until the jail is gone: its mount namespace ends with its last process.
        const layout = placeholders.acquire();
        const jail = bwrapArguments({
          workspace,
          workingDir,
          systemPaths,
          protectedMounts: layout.mounts,
          tmpBytes: limits.tmpBytes,
          uid: inside.uid,
          gid: inside.gid,
        });
        const cgroup = cgroups?.acquire();
        // The jail waits on fd 4 until it is in its cgroup (and bridged to the proxy).
        const block = allowList || cgroup ? ['--block-fd', '4'] : [];
        const bwrap = [
          bwrapPath,
          ...jail,
          '--info-fd',
          '3',
          ...block,
          '--',
          '/bin/sh',
          '-c',
          request.command,
        ];
        const dropped = dropTo
          ? [
              'setpriv',
              `--reuid=${dropTo.uid}`,
              `--regid=${dropTo.gid}`,
              '--clear-groups',
              '--no-new-privs',
              ...bwrap,
            ]
          : bwrap;
        const argv = dropped;
        const timeoutMs =
          request.timeoutMs !== undefined && request.timeoutMs > 0
            ? request.timeoutMs
            : (options.defaultTimeoutMs ?? DEFAULT_SANDBOX_TIMEOUT_MS);
        const process = new BwrapProcess(request, {
          argv,
          env: {
            ...sandboxEnvironment(request.env, envAllowList, fixedEnv),
            ...(allowList ? proxyEnvironment() : {}),
            PWD: workingDir,
          },
          timeoutMs,
          maxOutputBytes: request.maxOutputBytes ?? options.defaultMaxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
          limits,
          cgroup,
          ...(cgroups ? { releaseCgroup: (used: CommandCgroup) => cgroups.release(used) } : {}),
          networkNone: allowList === undefined,
          bwrapPath,
          ...(allowList
            ? {
                bridge: async (jailPid: number) => {
                  const running = await proxyFor(allowList);
                  const forwarder = await startNamespaceForwarder(jailPid, running.socketPath);
                  return () => forwarder.stop();
                },
                refusedSince: (since: number) => refused?.refusedSince(since) ?? [],
              }
            : {}),
        });
        running.add(process);
        void process.done
          .finally(() => {
            running.delete(process);
            layout.release();
          })
          .catch(() => undefined);
        return { process, sources: new Set(layout.mounts.map((mount) => mount.hostPath)) };
      };
      return relaunchWhenSourceVanished(launch, MOUNT_ATTEMPTS);
    },
    async close() {
      closed = true;
      await Promise.all([...running].map((process) => process.kill()));
      cgroups?.close();
      if (proxy) await (await proxy.catch(() => undefined))?.close();
    },
  };
}
